import Foundation
import Sim

/// Writes `reports/<scenario>/<run-id>/` (report.json, report.md, report.html, one
/// `<operation>.hgrm` per operation, optional trace.jsonl), each file through `AtomicFile` (unique temporary name, fsync, rename, fsync of
/// the folder; existing targets that are not regular files are refused).
public enum ReportWriter {
    /// Writes every file of `report` under `root` and returns the run's folder.
    @discardableResult
    public static func write(_ report: RunReport, trace: [TraceEvent], to root: String) throws(ReportWriteError) -> String {
        guard !root.isEmpty else { throw .cannotWrite(path: "''", reason: "the report folder is empty (give a folder such as reports)") }
        let directory = "\(root)/\(report.scenario)/\(report.runId)"
        do { try AtomicFile.createDirectories(directory) } catch { throw .cannotWrite(path: error.path, reason: error.reason) }
        try writeJSON(report, to: "\(directory)/report.json")
        try writeAtomically(markdown(report), to: "\(directory)/report.md")
        try writeAtomically(html(report), to: "\(directory)/report.html")
        try HgrmFile.write(report.latency, to: directory)
        if !trace.isEmpty {
            try writeAtomically(trace.map(\.jsonLine).joined(separator: "\n") + "\n", to: "\(directory)/trace.jsonl")
        }
        return directory
    }

    /// Writes `report` as JSON to `path` atomically.
    public static func writeJSON(_ report: RunReport, to path: String) throws(ReportWriteError) {
        let data: Data
        do { data = try ReportFormat.jsonEncoder().encode(report) } catch {
            throw .cannotWrite(path: path, reason: "encoding failed: \(error)")
        }
        try writeAtomically(String(decoding: data, as: UTF8.self) + "\n", to: path)
    }

    /// Reads a report (or failure artifact) written by `writeJSON`.
    public static func read(_ path: String) throws(ScenarioError) -> RunReport {
        let data = try InputFile.read(path, limit: ScenarioLimits.maxArtifactBytes)
        try InputFile.requireSchemaVersion(data, path: path, expected: RunReport.currentSchemaVersion, what: "a Rehearsal report")
        return try InputFile.decode(RunReport.self, from: data, path: path, what: "a Rehearsal report")
    }

    /// Writes `text` to `path` through `AtomicFile`, the one atomic writer.
    package static func writeAtomically(_ text: String, to path: String) throws(ReportWriteError) {
        StaleTemporaryFiles.clean(beside: path)
        do { try AtomicFile.write(text, to: path) } catch { throw .cannotWrite(path: error.path, reason: error.reason) }
    }
}
