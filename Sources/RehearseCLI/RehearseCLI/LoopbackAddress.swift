/// `conformance --emulator` and `load --backend emulator=…`: a loopback `HOST:PORT`, `127.x.x.x:PORT`, `localhost:PORT` or
/// `[::1]:PORT`, with a port in 1...65535.
package struct LoopbackAddress: Hashable, CustomStringConvertible {
    /// The address as given.
    package let description: String

    /// `text` when it is a loopback `HOST:PORT`; nil otherwise.
    package init?(parsing text: String) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (1...65535).contains(port) else { return nil }
        let host = text[..<colon]
        guard host == "localhost" || host == "[::1]" || (host.hasPrefix("127.") && host.split(separator: ".").count == 4
            && host.split(separator: ".").allSatisfy { UInt8($0) != nil }) else { return nil }
        description = text
    }
}
