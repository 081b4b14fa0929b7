/// Test hooks a run hands to the backends it builds (empty in real runs): planted defects that make
/// a backend kinder than production, and a document-parking threshold. The harness only carries
/// them; a backend's bridge reads them (`ScenarioContext.testHooks`).
package struct BackendTestHooks: Sendable, Hashable {
    /// Names of planted backend defects.
    package var defects: Set<String> = []
    /// Live document actors at which backends start parking idle ones (nil: the default).
    package var documentParkingThreshold: Int?

    /// No hooks.
    package init(defects: Set<String> = [], documentParkingThreshold: Int? = nil) {
        self.defects = defects
        self.documentParkingThreshold = documentParkingThreshold
    }
}
