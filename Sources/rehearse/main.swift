import Harness
import RehearseCLI
import RehearseTools
import ScenarioFixtures
import Scenarios

// The built-in `rehearse`: the command line with the five apps' scenarios as its catalog and its
// own tools (zoo, timeline, bench, selfcheck), plus the hidden `crash-test` fixture the CLI tests
// run (it lives in no library product).
ScenarioRegistry.registerCatalog(BuiltInScenarios.all)
ScenarioRegistry.registerHidden(CrashTestScenario())
RehearseTools.registerServers()
Rehearse.main(scenarios: [], tools: RehearseTools.commands)
