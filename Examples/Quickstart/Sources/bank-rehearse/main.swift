import BankScenarios
import RehearseCLI

// A full `rehearse` (list, run, replay, fuzz, shrink, merge, …) with the bank's scenario added.
Rehearse.main(scenarios: [TransferRaceScenario()])
