import RehearseCLI

extension Rehearse.ZooCommand: Simulates {}
extension Rehearse.TimelineCommand: Simulates {}
extension SelfCheckCommand: Simulates {}
extension BenchCommand: Simulates {}
