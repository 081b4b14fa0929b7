extension Simulation {
    /// The number of scheduler steps taken so far in the running simulation (the step that a
    /// checker's finding is reported at; replaying the same configuration reaches it again).
    public static var currentStep: UInt64 { current().steps }
}
