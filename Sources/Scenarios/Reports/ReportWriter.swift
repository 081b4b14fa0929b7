import Foundation
import Sim

/// Writes `reports/<scenario>/<run-id>/` (report.json, report.md, report.html, optional
/// trace.jsonl), each file atomically: written to a temporary name, then renamed.
public enum ReportWriter {
    /// Writes every file of `report` under `root` and returns the run's folder.
    @discardableResult
    public static func write(_ report: RunReport, trace: [TraceEvent], to root: String) throws(ReportWriteError) -> String {
        let directory = "\(root)/\(report.scenario)/\(report.runId)"
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw .cannotWrite(path: directory, reason: "\(error.localizedDescription)")
        }
        try writeJSON(report, to: "\(directory)/report.json")
        try writeAtomically(markdown(report), to: "\(directory)/report.md")
        try writeAtomically(html(report), to: "\(directory)/report.html")
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
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .unreadableArtifact(path: path, reason: "no such file")
        }
        do {
            let report = try JSONDecoder().decode(RunReport.self, from: data)
            guard report.schemaVersion == RunReport.currentSchemaVersion else {
                throw ScenarioError.unreadableArtifact(path: path, reason: "schema version \(report.schemaVersion), expected \(RunReport.currentSchemaVersion)")
            }
            return report
        } catch let error as ScenarioError {
            throw error
        } catch {
            throw .unreadableArtifact(path: path, reason: "not a Rehearsal report (\(error))")
        }
    }

    /// Writes `text` to `path` via a temporary file in the same folder and a rename.
    public static func writeAtomically(_ text: String, to path: String) throws(ReportWriteError) {
        let temporary = path + ".tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8)) else {
            throw .cannotWrite(path: temporary, reason: "cannot create file")
        }
        if rename(temporary, path) != 0 {
            throw .cannotWrite(path: path, reason: "rename failed (errno \(errno))")
        }
    }
}
