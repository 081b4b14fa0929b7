/// What a trace belongs to: the optimizer changes actor hops, so a seed reproduces a run only
/// on the same compiler, build configuration and commit. Recorded with every seed.
public struct BuildFingerprint: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The Swift compiler the binary was built with, e.g. "6.3".
    public var compiler: String
    /// "debug" or "release".
    public var configuration: String
    /// The project's git commit (with "-dirty" for uncommitted changes), or "unknown".
    public var commit: String

    /// This binary's fingerprint by default; a report's when decoding one.
    public init(compiler: String = BuildFingerprint.compilerVersion,
                configuration: String = BuildFingerprint.buildConfiguration,
                commit: String) {
        self.compiler = compiler
        self.configuration = configuration
        self.commit = commit
    }

    /// "swift 6.3, release, commit abc123": how reports print it.
    public var description: String { "swift \(compiler), \(configuration), commit \(commit)" }

    /// The compiler version this binary was built with.
    public static var compilerVersion: String {
        #if compiler(>=6.5)
        return ">=6.5"
        #elseif compiler(>=6.4)
        return "6.4"
        #elseif compiler(>=6.3)
        return "6.3"
        #elseif compiler(>=6.2)
        return "6.2"
        #else
        return "<6.2"
        #endif
    }

    /// "debug" or "release" for this binary.
    public static var buildConfiguration: String {
        #if DEBUG
        return "debug"
        #else
        return "release"
        #endif
    }
}
