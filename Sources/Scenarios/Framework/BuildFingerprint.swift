/// Which binary produced a report: compiler, build configuration and (when the caller knows it)
/// the git commit. Scenarios never shells out; the CLI passes the commit in.
public struct BuildFingerprint: Sendable, Hashable, Codable {
    public let compiler: String
    public let configuration: String
    public let gitCommit: String?

    public init(gitCommit: String?) {
        self.compiler = Self.compilerVersion
        self.configuration = Self.buildConfiguration
        self.gitCommit = gitCommit
    }

    static var compilerVersion: String {
        #if compiler(>=6.4)
        return "swift-6.4+"
        #elseif compiler(>=6.3)
        return "swift-6.3"
        #elseif compiler(>=6.2)
        return "swift-6.2"
        #elseif compiler(>=6.1)
        return "swift-6.1"
        #else
        return "swift-older-than-6.1"
        #endif
    }

    static var buildConfiguration: String {
        #if DEBUG
        return "debug"
        #else
        return "release"
        #endif
    }
}
