import Testing
@testable import Sim

/// `SpillFile` gives back exactly what was appended, from its buffer or from the file, and
/// declines (nil) rather than fails when it cannot create its file.
@Suite struct SpillFileTests {
    @Test("records across several buffer flushes, one larger than the buffer, read back in any order")
    func appendedBytesComeBack() {
        let file = SpillFile()
        var records: [(offset: UInt64, bytes: [UInt8])] = []
        var state: UInt64 = 28
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        var total = 0
        for index in 0..<6_000 {
            // Mostly small records (as documents are), one far larger than the buffer, some empty.
            let count = index == 3_000 ? SpillFile.bufferSize + 4_097 : Int(next() % 900)
            let bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) }
            guard let offset = bytes.withUnsafeBytes({ file.append($0) }) else {
                Issue.record("append \(index) failed")
                return
            }
            #expect(offset == UInt64(total), "record \(index) at \(offset), expected \(total)")
            total += count
            records.append((offset, bytes))
        }
        #expect(file.size == UInt64(total))
        #expect(total > 3 * SpillFile.bufferSize, "the records must cross several flushes")
        var wrong = 0
        for index in stride(from: records.count - 1, through: 0, by: -7) + Array(0..<records.count) {
            let record = records[index]
            if file.read(at: record.offset, count: record.bytes.count) != record.bytes { wrong += 1 }
        }
        #expect(wrong == 0)
    }

    @Test("a directory it cannot write to makes append decline, not fail")
    func unwritableDirectoryDeclines() {
        let file = SpillFile(directory: "/nonexistent-rehearsal-directory/sub")
        let bytes: [UInt8] = [1, 2, 3]
        #expect(bytes.withUnsafeBytes { file.append($0) } == nil)
        #expect(bytes.withUnsafeBytes { file.append($0) } == nil)
        #expect(file.size == 0)
    }
}
