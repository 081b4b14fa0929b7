#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension FirestoreIndexes {
    /// A problem with a `firestore.indexes.json` file, named for the user.
    public struct FileError: Error, CustomStringConvertible, Equatable {
        /// What is wrong, in one line.
        public let description: String
    }

    /// The indexes a `firestore.indexes.json` file deploys (firebase-tools' format: `indexes` with
    /// `collectionGroup`, `queryScope` and `fields` of `fieldPath` with `order` or `arrayConfig`;
    /// `fieldOverrides` with collection-group `indexes`).
    public init(json: String) throws(FileError) {
        let file: IndexFile
        do {
            file = try JSONDecoder().decode(IndexFile.self, from: Data(json.utf8))
        } catch {
            throw FileError(description: "firestore.indexes.json: not an index file (\(error))")
        }
        self.init()
        for index in file.indexes ?? [] {
            let scope = try Self.scope(index.queryScope)
            let fields = try index.fields.map { field throws(FileError) in CompositeIndex.Field(field.fieldPath, try Self.mode(field.order, field.arrayConfig, field.fieldPath)) }
            guard !fields.isEmpty else { throw FileError(description: "firestore.indexes.json: an index of \(index.collectionGroup) has no fields") }
            indexes.append(CompositeIndex(index.collectionGroup, scope: scope, fields))
        }
        for override in file.fieldOverrides ?? [] {
            for index in override.indexes where try Self.scope(index.queryScope) == .collectionGroup {
                let mode = try Self.mode(index.order, index.arrayConfig, override.fieldPath)
                groupFields.append(GroupField(override.collectionGroup, CompositeIndex.Field(override.fieldPath, mode)))
            }
        }
    }

    private struct IndexFile: Decodable {
        struct Field: Decodable { let fieldPath: String; let order: String?; let arrayConfig: String? }
        struct Index: Decodable { let collectionGroup: String; let queryScope: String?; let fields: [Field] }
        struct OverrideIndex: Decodable { let queryScope: String?; let order: String?; let arrayConfig: String? }
        struct Override: Decodable { let collectionGroup: String; let fieldPath: String; let indexes: [OverrideIndex] }
        let indexes: [Index]?
        let fieldOverrides: [Override]?
    }

    private static func scope(_ text: String?) throws(FileError) -> CompositeIndex.Scope {
        guard let scope = CompositeIndex.Scope(rawValue: text ?? "COLLECTION") else {
            throw FileError(description: "firestore.indexes.json: queryScope \"\(text ?? "")\" is neither COLLECTION nor COLLECTION_GROUP")
        }
        return scope
    }

    private static func mode(_ order: String?, _ arrayConfig: String?, _ path: String) throws(FileError) -> CompositeIndex.Mode {
        switch (order, arrayConfig) {
        case ("ASCENDING", nil): return .ascending
        case ("DESCENDING", nil): return .descending
        case (nil, "CONTAINS"): return .contains
        default: throw FileError(description: "firestore.indexes.json: field \(path) needs order ASCENDING or DESCENDING, or arrayConfig CONTAINS")
        }
    }
}
