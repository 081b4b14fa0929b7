#if canImport(Glibc)
import Glibc
#endif

/// The GNU build ID of the running executable (its ELF `NT_GNU_BUILD_ID` note, hex), which the
/// linker derives from the binary's contents: two binaries with one ID ran the same code, so a
/// report from a stale binary is told apart from one built at the commit it names.
enum ExecutableBuildID {
    /// The main executable's build ID, or nil when it has none (linked with `--build-id=none`).
    static let current: String? = read()

    /// Walks the main program's ELF program headers (found through the auxiliary vector, 64-bit
    /// layout: `Elf64_Phdr`, 56 bytes) to its PT_NOTE segments, already mapped in memory.
    private static func read() -> String? {
        #if canImport(Glibc) && (arch(x86_64) || arch(arm64))
        // getauxval(3) is not in Swift's Glibc module; the C library exports it.
        typealias GetAuxiliaryValue = @convention(c) (UInt) -> UInt
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "getauxval") else { return nil }
        let getauxval = unsafeBitCast(symbol, to: GetAuxiliaryValue.self)
        let headers = getauxval(3 /* AT_PHDR */), count = Int(getauxval(5 /* AT_PHNUM */))
        guard headers != 0, count > 0, let table = UnsafeRawPointer(bitPattern: headers) else { return nil }
        let entrySize = 56, typeNote: UInt32 = 4, typeHeaders: UInt32 = 6
        func type(_ index: Int) -> UInt32 { table.loadUnaligned(fromByteOffset: index * entrySize, as: UInt32.self) }
        func address(_ index: Int) -> UInt { UInt(table.loadUnaligned(fromByteOffset: index * entrySize + 16, as: UInt64.self)) }
        func memorySize(_ index: Int) -> Int { Int(table.loadUnaligned(fromByteOffset: index * entrySize + 40, as: UInt64.self)) }
        // A position-independent executable is loaded at a bias: where PT_PHDR landed minus where it asked to be.
        guard let own = (0..<count).first(where: { type($0) == typeHeaders }) else { return nil }
        let bias = headers &- address(own)
        for index in 0..<count where type(index) == typeNote {
            guard let start = UnsafeRawPointer(bitPattern: bias &+ address(index)) else { continue }
            if let id = buildID(notes: UnsafeRawBufferPointer(start: start, count: memorySize(index))) {
                return id.map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }.joined()
            }
        }
        return nil
        #else
        return nil
        #endif
    }

    /// The descriptor of the `GNU` note of type 3 (`NT_GNU_BUILD_ID`) in a PT_NOTE segment.
    private static func buildID(notes: UnsafeRawBufferPointer) -> [UInt8]? {
        var offset = 0
        func aligned(_ value: Int) -> Int { (value + 3) & ~3 }
        while offset + 12 <= notes.count {
            let nameSize = Int(notes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            let descriptorSize = Int(notes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self))
            let type = notes.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self)
            let name = offset + 12
            let descriptor = name + aligned(nameSize)
            guard descriptor + descriptorSize <= notes.count else { return nil }
            if type == 3, nameSize == 4, Array(notes[name..<name + 3]) == Array("GNU".utf8) {
                return Array(notes[descriptor..<descriptor + descriptorSize])
            }
            offset = descriptor + aligned(descriptorSize)
        }
        return nil
    }
}
