extension FirestoreRESTClient {
    /// Registers `trigger` with an emulator started with `--functions_emulator` (a `PUT` of its
    /// event trigger, as firebase-tools does): from now on each matching change of this project is
    /// posted to the functions host. A trigger cannot be listed or removed; registering the same
    /// name again replaces it.
    public func register(_ trigger: EmulatorTrigger) async throws(RESTError) {
        _ = try await send("PUT", "emulator/v1/projects/\(project)/triggers/\(trigger.name)", body: trigger.registration(in: self))
    }
}
