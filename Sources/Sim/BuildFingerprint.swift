/// What a trace belongs to: the optimizer changes actor hops, so a seed reproduces a run only
/// on the same compiler, build configuration and commit. Recorded with every seed.
public struct BuildFingerprint: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The Swift compiler the binary was built with, e.g. "6.3".
    public var compiler: String
    /// "debug" or "release".
    public var configuration: String
    /// The git commit (with "-dirty" for uncommitted changes) of the source tree the binary was
    /// built in, looked up when it runs (a stale binary names the tree's newer commit: `binary`
    /// tells them apart), or "unknown".
    public var commit: String
    /// The executable's GNU build ID (hex), derived by the linker from its contents; nil when
    /// unknown (files written before it was recorded, library callers).
    public var binary: String?

    /// A fingerprint for this compiler, configuration and commit; the build ID defaults to the
    /// running executable's (whoever makes a fingerprint is the binary that ran).
    public init(compiler: String = BuildFingerprint.compilerVersion,
                configuration: String = BuildFingerprint.buildConfiguration,
                commit: String, binary: String? = BuildFingerprint.executableBuildID) {
        self.compiler = compiler
        self.configuration = configuration
        self.commit = commit
        self.binary = binary
    }

    /// "swift 6.3, release, commit abc, binary 0123456789ab".
    public var description: String { "swift \(compiler), \(configuration), commit \(commit)" + (binary.map { ", binary \($0.prefix(12))" } ?? "") }

    /// The running executable's GNU build ID (hex), nil when it has none.
    public static var executableBuildID: String? { ExecutableBuildID.current }

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
