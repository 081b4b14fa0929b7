import ChildProcess
import Foundation
import RehearsalTestSupport
import Testing

/// The failure page and the sweep page as a browser renders them: headless Chromium dumps the
/// DOM after layout and the tests read its text (skipped, saying so, where Chromium is absent).
@Suite(.ciOnly, .tags(.subprocess)) struct ReportPageTests {
    /// Chromium's binary, if installed (`apt-get install -y chromium`).
    static let chromium: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    func temporaryDirectory() -> String {
        let path = NSTemporaryDirectory() + "rehearse-pages-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The DOM of `file` after Chromium loaded and laid it out, as text. A Chromium that dies of a
    /// signal or hangs (it happens on a loaded machine, and says nothing of the page) is run once more.
    func renderedDOM(_ file: String) throws -> String {
        let chromium = try #require(Self.chromium)
        func render() throws -> ChildProcess.Result {
            try ChildProcess.run(chromium, ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                                            "--user-data-dir=\(temporaryDirectory())", "--dump-dom", "file://\(file)"],
                                 standardError: .discard, timeLimit: 300)
        }
        var run = try render()
        if run.signal != nil || run.timedOut { run = try render() }
        #expect(run.status == 0 && run.signal == nil && !run.timedOut, "chromium exited \(run.status), signal \(run.signal.map(String.init) ?? "none")")
        return run.output
    }

    /// The text of the page without tags (what a reader sees).
    func visibleText(_ dom: String) -> String {
        dom.replacingOccurrences(of: "<[^>]+>", with: " ", options: .regularExpression)
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&amp;", with: "&")
            .replacingOccurrences(of: "\\s+", with: " ", options: .regularExpression)
    }

    @Test(.enabled(if: chromium != nil, "chromium is not installed (apt-get install -y chromium); the rendered pages were not checked"))
    func failingRunPageTellsWhatFailedHowAndHowToReplay() throws {
        let dir = temporaryDirectory()
        let run = try CommandLineRunner.run(["run", "auction-race", "--variant", "outbid-self-notify", "--seed", "3", "--quiet", "--report-dir", dir])
        #expect(run.status == 1)
        let folder = "\(dir)/auction-race/auction-race-s3-random-outbid-self-notify"
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(folder)/report.json"))) as! [String: Any]
        let violation = try #require(json["violation"] as? [String: Any])
        let check = try #require(violation["check"] as? String), step = try #require(violation["step"] as? Int)
        let story = try #require(json["story"] as? [[String: Any]])
        #expect(story.count >= 2 && story.last?["kind"] as? String == "violation")
        let dom = try renderedDOM("\(folder)/report.html")
        let text = visibleText(dom)
        // What failed, how, and how to replay it, at the top.
        #expect(text.contains("Violated check: \(check)"))
        #expect(text.contains("replay: rehearse run auction-race --seed 3 --strategy random --variant outbid-self-notify"))
        // The story: every line's event, numbered, linked to its step; the violation marked.
        for line in story.dropLast() {
            let event = try #require(line["event"] as? String)
            #expect(text.contains(event), "story line \(event) not on the page")
            if let lineStep = line["step"] as? Int { #expect(dom.contains("href=\"#step-\(lineStep)\"")) }
        }
        #expect(text.contains("VIOLATED \(check): "))
        #expect(dom.contains("id=\"step-\(step)\""), "the violation's step has an anchor in the timeline")
        #expect(dom.contains("<svg class=\"story\""))
        // Axes with titles; lanes in natural order with a legend.
        #expect(text.contains("percentile (log scale of 1/(1−p))") && text.contains("latency") && text.contains("completion time (UTC)"))
        #expect(text.contains("time (UTC; virtual"))
        #expect(text.contains("fault injected by the backend") || text.contains("user event"))
        // Coverage of the run.
        #expect(text.contains("Backend coverage") && text.contains("declared functions, triggers, scheduled jobs and rules ran"))
    }

    @Test(.enabled(if: chromium != nil, "chromium is not installed (apt-get install -y chromium); the rendered pages were not checked"))
    func sweepPageSummarisesSeedsFailuresGoalsAndCoverage() throws {
        let dir = temporaryDirectory()
        // The default world, where this depth-1 bug fails most seeds (drawn worlds with few bids rarely show it).
        let fuzz = try CommandLineRunner.run(["fuzz", "auction-race", "--variant", "outbid-self-notify", "--seeds", "1..<5", "--world", "default",
                                              "--keep-going", "--no-shrink", "--jobs", "2", "--report-dir", dir, "--quiet"])
        #expect(fuzz.status == 1)
        let page = "\(dir)/auction-race/sweep.html"
        #expect(fuzz.standardOutput.contains("page: \(page)"))
        let text = visibleText(try renderedDOM(page))
        #expect(text.contains("Sweep auction-race"))
        #expect(text.contains("4 seeds run"))
        #expect(text.contains("rehearse replay \(dir)/auction-race/failures/"))
        #expect(text.contains("Backend coverage"))
        #expect(text.contains("callable") && text.contains("trigger") && text.contains("rule"))
        #expect(text.contains("never exercised"))
        #expect(text.contains("Strategies") && text.contains("Faults: observed vs expected"))
        #expect(text.contains("percentile (log scale of 1/(1−p))"))
        // Merging the one result writes its page too.
        let merged = try CommandLineRunner.run(["merge", "\(dir)/auction-race/sweep.json", "--output", "\(dir)/merged.json"])
        #expect(merged.standardOutput.contains("page: \(dir)/merged.html"))
        #expect(FileManager.default.fileExists(atPath: "\(dir)/merged.html"))
    }
}
