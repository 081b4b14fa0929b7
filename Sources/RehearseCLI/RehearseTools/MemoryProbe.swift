import FirebaseHarness
import Harness
import RehearseCLI
import SimulatedFirebase

#if canImport(Glibc)
import Glibc
#endif

/// Bytes the process's allocator has handed out and not taken back: jemalloc's `stats.allocated`
/// (after an `epoch` refresh) when jemalloc is the allocator (linked or `LD_PRELOAD`ed); the
/// resident set size from `/proc/self/statm` otherwise (glibc's `mallinfo2` is not in the Glibc module).
enum MemoryProbe {
    private typealias Mallctl = @convention(c) (
        UnsafePointer<CChar>?, UnsafeMutableRawPointer?, UnsafeMutablePointer<Int>?, UnsafeMutableRawPointer?, Int
    ) -> Int32

    private static let mallctl: Mallctl? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallctl") else { return nil }  // RTLD_DEFAULT
        return unsafeBitCast(symbol, to: Mallctl.self)
    }()

    /// "jemalloc" or "glibc malloc".
    static var allocatorName: String { mallctl == nil ? "glibc malloc" : "jemalloc" }

    /// What `allocatedBytes` measures.
    static var allocatedMeasure: String { mallctl == nil ? "RSS (/proc/self/statm)" : "jemalloc stats.allocated" }

    /// Bytes currently allocated by the program (jemalloc: not counting allocator overhead and
    /// caches), or the resident set size under glibc malloc.
    static func allocatedBytes() -> Int {
        if let mallctl {
            var epochOut: UInt64 = 0
            var epochIn: UInt64 = 1
            var epochSize = MemoryLayout<UInt64>.size
            _ = mallctl("epoch", &epochOut, &epochSize, &epochIn, MemoryLayout<UInt64>.size)
            var allocated = 0
            var size = MemoryLayout<Int>.size
            let status = mallctl("stats.allocated", &allocated, &size, nil, 0)
            precondition(status == 0, "mallctl(stats.allocated) failed: \(status)")
            return allocated
        }
        return residentBytes()
    }

    /// Starts a peak measurement: jemalloc's per-thread peak (`thread.peak.reset`; the simulation
    /// runs on this thread), or the process's resident high-water mark (`/proc/self/clear_refs` 5).
    static func resetPeak() {
        if let mallctl {
            _ = mallctl("thread.peak.reset", nil, nil, nil, 0)
            return
        }
        if let file = fopen("/proc/self/clear_refs", "w") {
            fputs("5", file)
            fclose(file)
        }
    }

    /// Bytes at the peak since `resetPeak()`: jemalloc's `thread.peak.read` (bytes this thread
    /// allocated minus freed, at its highest), or `VmHWM` (peak RSS) under glibc malloc.
    static func peakBytes() -> Int {
        if let mallctl {
            var peak: UInt64 = 0
            var size = MemoryLayout<UInt64>.size
            if mallctl("thread.peak.read", &peak, &size, nil, 0) == 0 { return Int(peak) }
        }
        guard let file = fopen("/proc/self/status", "r") else { return 0 }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 512)
        while fgets(&buffer, Int32(buffer.count), file) != nil {
            let line = String(cString: buffer)
            guard line.hasPrefix("VmHWM:") else { continue }
            let kilobytes = line.dropFirst(6).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap { Int($0) } ?? 0
            return kilobytes * 1024
        }
        return 0
    }

    /// What `peakBytes` measures.
    static var peakMeasure: String { mallctl == nil ? "peak RSS (VmHWM)" : "jemalloc thread.peak" }

    /// Resident set size in bytes.
    static func residentBytes() -> Int {
        guard let file = fopen("/proc/self/statm", "r") else { return 0 }
        defer { fclose(file) }
        var size = 0
        var resident = 0
        guard fscanf_statm(file, &size, &resident) else { return 0 }
        return resident * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    private static func fscanf_statm(_ file: UnsafeMutablePointer<FILE>, _ size: inout Int, _ resident: inout Int) -> Bool {
        var buffer = [CChar](repeating: 0, count: 256)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return false }
        let fields = String(cString: buffer).split(separator: " ")
        guard fields.count >= 2, let first = Int(fields[0]), let second = Int(fields[1]) else { return false }
        size = first
        resident = second
        return true
    }
}
