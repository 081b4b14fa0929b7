import Foundation

/// Seeded check-in logs for `rehearse timeline`: valid ones (for the reference model: DST
/// changes in five zones, threshold changes, pauses, contacts, outages, double taps, travel) and
/// malformed ones (every way a row or a file can be wrong).
struct TimelineLogGenerator {
    /// SplitMix64: small, seeded, the same everywhere.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
        mutating func range(_ r: ClosedRange<Int>) -> Int { r.lowerBound + below(r.count) }
        mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
        mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
    }

    /// DST changes of 2026 (US spring/fall, EU spring/fall, NSW April/October), as Unix seconds.
    static let dstChanges: [Int64] = [1_772_935_200, 1_774_746_000, 1_775_318_400, 1_791_136_800, 1_792_890_000, 1_793_512_800]
    static let contactPool = ["ana@example.org", "ben@example.org", "cy@example.net", "dee@example.com"]
    static let offsets = [-12 * 60, -8 * 60, -5 * 60, 0, 60, 5 * 60 + 30, 9 * 60, 10 * 60, 14 * 60]

    /// A valid log: its events (file order) and its text (CSV, or JSON for every fifth seed).
    static func valid(seed: UInt64) -> (events: [TimelineReferenceModel.Event], text: String, json: Bool) {
        var random = Random(state: seed &* 7919 &+ 17)
        let anchor = seed % 4 == 3 ? Int64(1_767_225_600 + random.below(5 * 365) * 86_400) : random.pick(dstChanges)
        let start = anchor - Int64(random.range(0...4 * 86_400))
        var events: [TimelineReferenceModel.Event] = []
        for n in 0..<random.range(1...3) {
            let user = "user\(n)"
            var zone = random.pick(TimelineReferenceZones.names)
            var t = start + Int64(random.range(0...6 * 3600))
            func time() -> Int64 { t % 60 == 0 ? t + 7 : t }
            var lastCheckIn: Int64 = 0, hours = 72
            func add(_ kind: TimelineReferenceModel.Event.Kind, zoneColumn: String? = nil) {
                t = time()
                events.append(.init(time: t, user: user, kind: kind, zoneColumn: zoneColumn))
                if kind == .checkIn { lastCheckIn = t }
                if case .threshold(let h) = kind { hours = h }
            }
            /// An outage just before the push (or email) the current window expects, out of time order.
            func outage(email: Bool) {
                var at = lastCheckIn + Int64(hours - (email ? 0 : 3)) * 3600 - Int64(random.range(60...1200))
                if at % 60 == 0 { at += 11 }
                let minutes = random.range(5...40)
                events.append(.init(time: at, user: user, kind: email ? .emailFails(minutes) : .pushFails(minutes)))
            }
            if random.chance(30) { add(.threshold(random.pick([24, 48, 72]))) ; t += Int64(random.range(1...600)) }
            if random.chance(20) { add(.addContact(random.pick(contactPool))); t += Int64(random.range(1...600)) }
            if random.chance(10) { add(.pause); t += Int64(random.range(1...600)) }
            add(.checkIn, zoneColumn: zone)
            let end = t + Int64(random.range(2...9) * 86_400)
            while true {
                let gap = random.below(100)
                t += Int64(gap < 25 ? random.range(1...120) : gap < 75 ? random.range(3600...30 * 3600) : random.range(30 * 3600...80 * 3600))
                if t >= end { break }
                let action = random.below(100)
                switch action {
                case 0..<50: add(.checkIn, zoneColumn: random.chance(10) ? zone : nil)
                case 50..<55:
                    zone = random.pick(TimelineReferenceZones.names)
                    add(.checkIn, zoneColumn: zone)
                case 55..<63: add(.threshold(random.pick([24, 48, 72])))
                case 63..<67:
                    zone = random.pick(TimelineReferenceZones.names)
                    add(.zone(zone))
                case 67..<72: add(.pause)
                case 72..<78: add(.resume)
                case 78..<83: add(.addContact(random.pick(contactPool)))
                case 83..<87: add(.removeContact(random.pick(contactPool + ["contact-of-\(user)@example.com"])))
                case 87..<90: add(.editContact(random.pick(contactPool + ["contact-of-\(user)@example.com"]), random.pick(contactPool)))
                case 90..<93: add(.emailFails(random.range(1...240)))
                case 93..<95: add(.pushFails(random.range(1...240)))
                default: outage(email: random.chance(50))
                }
            }
        }
        let json = seed % 5 == 4
        var lines: [String] = []
        for event in events {
            let stamp = random.chance(50) ? "\(event.time)" : iso(event.time, offsetMinutes: random.pick(offsets))
            let what = Self.event(event.kind)
            if json {
                var fields = ["\"timestamp\": \"\(stamp)\"", "\"user\": \"\(event.user)\"", "\"event\": \"\(what)\""]
                if let zone = event.zoneColumn { fields.append("\"timezone\": \"\(zone)\"") }
                lines.append("{" + fields.joined(separator: ", ") + "}")
            } else {
                lines.append("\(stamp),\(event.user),\(what),\(event.zoneColumn ?? "")")
            }
        }
        if json { return (events, "[\n" + lines.joined(separator: ",\n") + "\n]\n", true) }
        let newline = seed % 7 == 3 ? "\r\n" : "\n"
        let bom = seed % 11 == 5 ? "\u{FEFF}" : ""
        return (events, bom + (["timestamp,user,event,timezone"] + lines).joined(separator: newline) + newline, false)
    }

    static func event(_ kind: TimelineReferenceModel.Event.Kind) -> String {
        switch kind {
        case .checkIn: "checkin"
        case .threshold(let h): "set-threshold:\(h)"
        case .zone(let z): "set-timezone:\(z)"
        case .pause: "pause"
        case .resume: "resume"
        case .addContact(let a): "add-contact:\(a)"
        case .removeContact(let a): "remove-contact:\(a)"
        case .editContact(let a, let b): "edit-contact:\(a)->\(b)"
        case .emailFails(let m): "email-fails:\(m)"
        case .pushFails(let m): "push-fails:\(m)"
        }
    }

    /// `2026-03-08T01:59:13-08:00` for Unix `seconds` written with the given offset.
    static func iso(_ seconds: Int64, offsetMinutes: Int) -> String {
        let local = seconds + Int64(offsetMinutes * 60)
        let days = TimelineReferenceZones.floorDiv(local, 86_400)
        let (y, m, d) = TimelineReferenceZones.civil(days)
        let s = Int(local - days * 86_400)
        let p = TimelineReferenceZones.pad
        let offset = offsetMinutes == 0 && seconds % 2 == 0 ? "Z" : "\(offsetMinutes < 0 ? "-" : "+")\(p(abs(offsetMinutes) / 60)):\(p(abs(offsetMinutes) % 60))"
        return "\(y)-\(p(m))-\(p(d))T\(p(s / 3600)):\(p(s % 3600 / 60)):\(p(s % 60))\(offset)"
    }

    /// A malformed log: a valid one with one defect, and what kind of defect it is.
    static func malformed(seed: UInt64) -> (text: String, kind: String) {
        var random = Random(state: seed &* 104_729 &+ 3)
        let good = "2026-03-07T10:00:13-08:00,alice,checkin,America/Los_Angeles"
        let badFields: [(String, String)] = [
            ("timestamp", random.pick(["2026-02-30T00:00:13Z", "2026-13-01T00:00:00Z", "2026-04-31T10:00:00Z", "2025-02-29T10:00:00Z",
                                         "2026-01-01T24:00:00Z", "2026-01-01T10:60:00Z", "2026-01-01T10:00:60Z", "2026-01-12T22:00:00",
                                         "2026-01-12T22:00:00+25:00", "2026-01-12T22:00:00+14:01", "2026-01-12T22:00:00-12:60",
                                         "2026-01-12T22:00:00 PST", "2026-01-12T22:00:00PST", "2300-01-01T00:00:00Z", "1969-12-31T23:59:59Z",
                                         "99999999999999", "-1", "9223372036854775807", "99999999999999999999999", "1e9", "0x10",
                                         "", "2026-01-12 22:00:00Z", "2026-1-12T22:00:00Z", "2026-01-12T22:00:00.1234567890Z",
                                         "２０２６-01-12T22:00:00Z", "2026-01-12T22:00:00Z junk", "now", "2026-01-12T22:00:00.Z"])),
            ("user", random.pick(["", "\"quoted\"", String(repeating: "u", count: 200), "tab\u{01}ctl"])),
            ("event", random.pick(["dance", "set-threshold:12", "set-threshold:", "set-threshold:72h", "set-timezone:PST",
                                   "set-timezone:Mars/Olympus", "set-timezone:", "add-contact:nobody", "add-contact:",
                                   "remove-contact:a@b", "edit-contact:a@b.com", "edit-contact:a@b.com->", "email-fails:0",
                                   "email-fails:-5", "push-fails:99999999", "push-fails:x", "CHECKIN", "check in", "pause:1"])),
            ("timezone", random.pick(["PST", "EST", "CET", "Mars/Olympus", "America/Nowhere", "+05:00", "GMT+1", "EST5EDT", "/", "America/"])),
        ]
        let choice = random.below(12)
        var header = "timestamp,user,event,timezone"
        var rows = [good]
        let kind: String
        switch choice {
        case 0..<6:
            let (column, value) = badFields[random.below(badFields.count)]
            var cells = good.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            cells[["timestamp", "user", "event", "timezone"].firstIndex(of: column)!] = value
            rows.insert(cells.joined(separator: ","), at: random.below(2))
            kind = "field-\(column)"
        case 6:
            header = random.pick(["timestamp,user,event,timezone,device", "timestamp,user,event,timezone,", "timestamp,user,user,event",
                                  "time,user,event", "timestamp;user;event", "", "timestamp,user", "\u{FEFF}\u{FEFF}timestamp,user,event"])
            kind = "header"
        case 7:
            rows.append(random.pick(["2026-03-07T10:00:13Z,bob", "2026-03-07T10:00:13Z,bob,checkin,UTC,extra", "2026-03-07T10:00:13Z,bob,\"checkin\",UTC"]))
            kind = "columns"
        case 8:
            rows = ["1772820013,alice,checkin,UTC", "\(1_772_820_013 + random.range(401...4000) * 86_400),alice,checkin,UTC"]
            kind = "span"
        case 9:
            let json = random.pick(["[", "[1,2]", "[{\"timestamp\": 1772820013}]", "[{\"timestamp\": true, \"user\": \"a\", \"event\": \"checkin\"}]",
                                    "[{\"timestamp\": 1772820013, \"user\": \"a\", \"event\": \"checkin\", \"device\": \"x\"}]",
                                    "[{\"timestamp\": 1.5, \"user\": \"a\", \"event\": \"checkin\"}]", "[{\"timestamp\": 1772820013, \"user\": 5, \"event\": \"checkin\"}]",
                                    "[]", "[{\"timestamp\": \"2026-02-30T00:00:00Z\", \"user\": \"a\", \"event\": \"checkin\"}]",
                                    String(repeating: "[", count: 5_000), "[{\"timestamp\": 1e300, \"user\": \"a\", \"event\": \"checkin\"}]"])
            return (json, "json")
        case 10:
            return (random.pick(["", "\n\n", "\u{FEFF}", "timestamp,user,event\n", "timestamp,user,event\r\n# only a comment\r\n",
                                 String(decoding: [0xFF, 0xFE, 0x00, 0x41], as: UTF8.self)]), "empty")
        default:
            var bytes = Array((header + "\n" + rows.joined(separator: "\n") + "\n").utf8)
            for _ in 0..<random.range(1...3) {
                bytes.insert(random.pick([0x00, 0xFF, 0x2C, 0x0D, 0x22, 0xC3] as [UInt8]), at: random.below(bytes.count))
            }
            // Make sure it is still broken: a stray comma in the first data row always is.
            bytes.insert(0x2C, at: Array(header.utf8).count + 1 + 3)
            return (String(decoding: bytes, as: UTF8.self), "bytes")
        }
        return ((([header] + rows).joined(separator: random.chance(50) ? "\n" : "\r\n")) + "\n", kind)
    }
}
