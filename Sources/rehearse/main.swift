import RehearseCLI
import ScenarioFixtures
import Scenarios

// The built-in `rehearse`: the library's command line with no scenarios added, plus the hidden
// `crash-test` fixture the CLI tests run (it lives in no library product).
ScenarioRegistry.registerHidden(CrashTestScenario())
Rehearse.main(scenarios: [])
