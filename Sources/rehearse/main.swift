import RehearseCLI

// The built-in `rehearse`: the library's command line with no scenarios added.
Rehearse.main(scenarios: [])
