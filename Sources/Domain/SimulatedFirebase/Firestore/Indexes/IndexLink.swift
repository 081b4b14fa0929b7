/// The console link production puts in a missing-index error: the index to create, encoded as a
/// `google.firestore.admin.v1.Index` message (a `Field` for a collection-group single-field index)
/// in unpadded base64.
enum IndexLink {
    static func url(for need: IndexNeed, project: String) -> String {
        let base = "https://console.firebase.google.com/v1/r/project/\(project)/firestore/indexes"
        let database = "projects/\(project)/databases/(default)/collectionGroups"
        switch need {
        case .composite(let group, let scope, let equalities, let order):
            var fields = equalities + order
            fields.append(CompositeIndex.Field(QueryField.documentName, order.last?.mode ?? .ascending))
            let index = index(name: "\(database)/\(group)/indexes/_", scope: scope, fields: fields)
            return "\(base)?create_composite=\(base64(index))"
        case .groupField(let group, let field):
            let index = index(name: nil, scope: .collectionGroup, fields: [field])
            let message = string(1, "\(database)/\(group)/fields/\(field.path)") + bytes(2, bytes(1, index))
            return "\(base)?create_exemption=\(base64(message))"
        }
    }

    private static func index(name: String?, scope: CompositeIndex.Scope, fields: [CompositeIndex.Field]) -> [UInt8] {
        var message = name.map { string(1, $0) } ?? []
        message += varint(2, scope == .collection ? 1 : 2)
        for field in fields {
            var encoded = string(1, field.path)
            switch field.mode {
            case .ascending: encoded += varint(2, 1)
            case .descending: encoded += varint(2, 2)
            case .contains: encoded += varint(3, 1)
            }
            message += bytes(3, encoded)
        }
        return message
    }

    private static func string(_ number: UInt64, _ value: String) -> [UInt8] { bytes(number, Array(value.utf8)) }

    private static func bytes(_ number: UInt64, _ value: [UInt8]) -> [UInt8] {
        raw(number << 3 | 2) + raw(UInt64(value.count)) + value
    }

    private static func varint(_ number: UInt64, _ value: UInt64) -> [UInt8] { raw(number << 3) + raw(value) }

    private static func raw(_ value: UInt64) -> [UInt8] {
        var value = value, out: [UInt8] = []
        while value >= 0x80 {
            out.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        out.append(UInt8(value))
        return out
    }

    private static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            let value = chunk.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (16 - 8 * UInt32($1.offset)) }
            for position in 0...chunk.count { out.append(alphabet[Int(value >> (18 - 6 * UInt32(position)) & 0x3F)]) }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
