import Foundation
import Sim
import Synchronization
import Testing

/// The one atomic writer: unique temporary names, no stray temporary files, and existing
/// targets that are not regular files (or are symlinks) refused rather than replaced.
@Suite struct AtomicFileTests {
    /// A fresh folder of this test's own (`mkdtemp`): the suite's tests run at once, and a name
    /// from the pid and the microsecond once gave two of them the same folder.
    func folder() throws -> String {
        var template = Array((NSTemporaryDirectory() + "rehearse-atomic-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        try #require(made != nil, "mkdtemp failed: \(errno)")
        return String(cString: template)
    }

    @Test func concurrentWritersNeverCollideAndLeaveNoTemporaryFiles() throws {
        let root = try folder()
        let failures = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 8) { writer in
            for round in 0..<25 {
                do { try AtomicFile.write("writer \(writer) round \(round)\n", to: root + "/report.json") } catch { failures.add(1, ordering: .relaxed) }
            }
        }
        #expect(failures.load(ordering: .relaxed) == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root) == ["report.json"])
        #expect(try String(contentsOfFile: root + "/report.json", encoding: .utf8).hasPrefix("writer "))
    }

    @Test func targetsThatAreNotRegularFilesAreRefused() throws {
        let root = try folder()
        #expect(mkfifo(root + "/fifo", 0o644) == 0)
        try FileManager.default.createDirectory(atPath: root + "/dir", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root + "/link", withDestinationPath: root + "/elsewhere")
        // A device node of the test's own (root only), never the machine's /dev/null.
        let device = mknod(root + "/null-device", S_IFCHR | 0o666, dev_t(1 << 8 | 3) /* makedev(1, 3), a macro Swift cannot see */) == 0 ? root + "/null-device" : nil
        let targets = [(root + "/fifo", "a FIFO"), (root + "/dir", "a directory"), (root + "/link", "a symbolic link")]
            + (device.map { [($0, "a character device")] } ?? [])
        for (path, kind) in targets {
            #expect(throws: (any Error).self) { try AtomicFile.write("x", to: path) }
            do { try AtomicFile.write("x", to: path) } catch { #expect(error.reason.contains(kind), "\(path): \(error.reason)") }
        }
        if let device {
            var status = stat()
            #expect(lstat(device, &status) == 0 && status.st_mode & S_IFMT == S_IFCHR, "the device node is still a device")
        }
        #expect(!FileManager.default.fileExists(atPath: root + "/elsewhere"), "nothing was written through the link")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root).sorted() == ["dir", "fifo", "link"] + (device == nil ? [] : ["null-device"]))
        #expect(throws: (any Error).self) { try AtomicFile.write("x", to: "") }
    }
}
