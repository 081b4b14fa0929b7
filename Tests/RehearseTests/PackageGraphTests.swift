import ChildProcess
import Foundation
import Testing

/// The package graph as SwiftPM sees it (`swift package describe --type json`) is the one
/// docs/architecture.md's table draws, and its arrows point one way: the harness, the CLI and the
/// testing helpers never reach an app or the simulated Firebase; the domain never reaches the kernel.
@Suite struct PackageGraphTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Target name → its dependencies on targets of this package, from SwiftPM.
    static func graph() throws -> [String: Set<String>] {
        try describe().mapValues(\.dependencies)
    }

    /// Target name → (path, dependencies on targets of this package) of every non-test target, from SwiftPM.
    static func describe() throws -> [String: (path: String, dependencies: Set<String>)] {
        let swift = try #require(Self.executable(named: "swift"), "swift is not on PATH")
        // --ignore-lock: `swift test` holds the build folder's lock while tests run; describe only reads.
        let run = try ChildProcess.run(swift, ["package", "--ignore-lock", "describe", "--type", "json"], directory: root.path, timeLimit: 120)
        #expect(run.status == 0, "\(run.error)")
        let json = try JSONSerialization.jsonObject(with: Data(run.standardOutput)) as? [String: Any]
        let targets = try #require(json?["targets"] as? [[String: Any]])
        var described: [String: (path: String, dependencies: Set<String>)] = [:]
        for target in targets where (target["type"] as? String) != "test" {
            let name = try #require(target["name"] as? String)
            let path = try #require(target["path"] as? String)
            described[name] = (path, Set(target["target_dependencies"] as? [String] ?? []))
        }
        return described
    }

    /// Path → target of the README's layout table (rows naming a target; `—` rows are plain folders).
    static func readmeLayout() throws -> [String: String] {
        let text = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header = try #require(lines.firstIndex(of: "| path | target | what |"), "the README's layout table is missing")
        var rows: [String: String] = [:]
        for line in lines[(header + 2)...] {
            guard line.hasPrefix("|") else { break }
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 3 else { continue }
            let path = cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`/"))
            #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path), "README layout: \(path) does not exist")
            if cells[1] != "—" { rows[path] = cells[1] }
        }
        return rows
    }

    /// Target name → (path, dependencies) from docs/architecture.md's table.
    static func documented() throws -> [String: (path: String, dependencies: Set<String>)] {
        let text = try String(contentsOf: root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header = try #require(lines.firstIndex(of: "| target | path | depends on |"), "the table's header is missing")
        var rows: [String: (String, Set<String>)] = [:]
        for line in lines[(header + 2)...] {
            guard line.hasPrefix("|") else { break }
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(cells.count == 3, "a row has three cells: \(line)")
            guard cells.count == 3 else { continue }
            let dependencies = cells[2] == "—" ? [] : cells[2].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            rows[cells[0]] = (cells[1], Set(dependencies))
        }
        return rows
    }

    static func executable(named name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// A test target's dependencies on targets of this package, from SwiftPM.
    static func testTargetDependencies(_ name: String) throws -> Set<String> {
        let swift = try #require(Self.executable(named: "swift"), "swift is not on PATH")
        let run = try ChildProcess.run(swift, ["package", "--ignore-lock", "describe", "--type", "json"], directory: root.path, timeLimit: 120)
        let json = try JSONSerialization.jsonObject(with: Data(run.standardOutput)) as? [String: Any]
        let targets = try #require(json?["targets"] as? [[String: Any]])
        let target = try #require(targets.first { $0["name"] as? String == name }, "no test target \(name)")
        return Set(target["target_dependencies"] as? [String] ?? [])
    }

    /// Every target reachable from any of `targets`.
    static func closure(_ targets: Set<String>, in graph: [String: Set<String>]) -> Set<String> {
        targets.reduce(into: Set<String>()) { $0.formUnion(closure($1, in: graph)) }
    }

    /// Every target reachable from `target`.
    static func closure(_ target: String, in graph: [String: Set<String>]) -> Set<String> {
        var seen: Set<String> = []
        var frontier = [target]
        while let next = frontier.popLast() {
            for dependency in graph[next] ?? [] where seen.insert(dependency).inserted { frontier.append(dependency) }
        }
        return seen
    }

    @Test func theArchitectureTableIsThePackageGraph() throws {
        let graph = try Self.graph()
        let documented = try Self.documented()
        // Test support (ChildProcess, RehearsalTestSupport) and the system zlib are not drawn.
        let drawn = graph.filter { !["ChildProcess", "RehearsalTestSupport", "CZlib"].contains($0.key) }
        #expect(Set(documented.keys) == Set(drawn.keys), "targets in the table vs the package")
        for (target, dependencies) in drawn.sorted(by: { $0.key < $1.key }) {
            #expect(documented[target]?.dependencies == dependencies, "\(target): table \(documented[target]?.dependencies.sorted() ?? []) vs package \(dependencies.sorted())")
            if let path = documented[target]?.path {
                #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(path).path), "\(target)'s path \(path)")
            }
        }
    }

    @Test func theReadmeLayoutTableIsThePackagesTargets() throws {
        let described = try Self.describe()
        let layout = try Self.readmeLayout()
        let targets = Dictionary(uniqueKeysWithValues: described.map { ($0.value.path, $0.key) })
        #expect(layout == targets, "README layout rows \(layout.sorted { $0.key < $1.key }) vs package \(targets.sorted { $0.key < $1.key })")
    }

    @Test func arrowsPointOneWay() throws {
        let graph = try Self.graph()
        let apps: Set<String> = ["Domain", "SimulatedFirebase", "FirebaseHarness", "Scenarios", "RehearseTools"]
        for target in ["Harness", "RehearseCLI", "RehearsalTesting", "ScenarioFixtures", "Sim", "KernelWorkloads"] {
            let reached = Self.closure(target, in: graph)
            #expect(reached.isDisjoint(with: apps), "\(target) reaches \(reached.intersection(apps).sorted())")
        }
        for target in ["SimulatedFirebase", "Domain"] {
            let reached = Self.closure(target, in: graph)
            #expect(reached.isDisjoint(with: ["Sim", "Harness"]), "\(target) must take its clock, executors and randomness injected")
        }
        let harnessTests = try Self.testTargetDependencies("HarnessTests")
        #expect(!harnessTests.isEmpty && Self.closure(harnessTests, in: graph).union(harnessTests).isDisjoint(with: apps.union(["Scenarios"])),
                "HarnessTests tests the harness alone: \(harnessTests.sorted())")
        #expect(graph["Sim"] == ["SimSyscall"], "the kernel depends on no target of this package but its C interposers")
        #expect(graph["SimSyscall"] == [])
    }
}
