/// An independent model of `rehearse timeline` (careful design), written from the SafeNSound
/// document and docs/domain.md, not from the domain code: a heartbeat opens a window; the
/// 30-minute check (ticks on :00/:30) creates the pre-notification (threshold − 3 h) and the email
/// (threshold) with their exact due times once they fall within the next 30 minutes; the 2-minute
/// sender (every even minute) sends what is due, re-checking the user; a heartbeat cancels what is
/// still scheduled; at most 1 accepted heartbeat per 60 s (the onboarding tap counts; a refused
/// tap does not); paused users get nothing, and a resume asks for a check; a failed send stays
/// scheduled and is retried by the next run; a pre-notification still unsent at the threshold is
/// dropped. Within one instant the sender runs before the check. Every time is whole seconds.
struct TimelineReferenceModel {
    /// One input row.
    struct Event {
        enum Kind: Equatable {
            case checkIn, threshold(Int), zone(String), pause, resume
            case addContact(String), removeContact(String), editContact(String, String)
            case emailFails(Int), pushFails(Int)
        }
        var time: Int64
        var user: String
        var kind: Kind
        var zoneColumn: String?
    }

    /// One table row: the five printed columns.
    struct Row: Equatable, CustomStringConvertible {
        var utc: String, user: String, since: String, local: String, what: String
        var description: String { "\(utc) | \(user) | \(since) | \(local) | \(what)" }
    }

    private enum AlertState: Equatable { case scheduled(due: Int64), sent, cancelled }

    private struct Alert {
        var state: AlertState
        var delivered: [String] = []
    }

    private struct User {
        var registered = false
        var active = true
        var hours = 72
        var contacts: [String] = []
        var serverZone = "UTC"
        var deviceZone = "UTC"
        var window: Int64 = 0
        var lastCall: Int64?
        var pre: Alert?
        var email: Alert?
        var nextCheck: Int64?
        var preSent = false
        var outages: [(email: Bool, from: Int64, until: Int64)] = []
    }

    private var users: [String: User] = [:]
    private var rows: [(time: Int64, user: String, seq: Int, row: Row)] = []
    private var seq = 0

    /// The rows `rehearse timeline` must print for `events` (given in file order).
    static func expected(_ events: [Event]) -> [Row] {
        var model = TimelineReferenceModel()
        return model.run(events)
    }

    private mutating func run(_ events: [Event]) -> [Row] {
        let ordered = events.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        guard let first = ordered.first?.time, let last = ordered.last?.time else { return [] }
        let epoch = (first - 1) / 1800 * 1800 // first > 0
        let end = last + 73 * 3600
        var tick = epoch + 1800
        var index = 0
        while tick <= end || index < ordered.count {
            if index < ordered.count && ordered[index].time < tick || tick > end {
                apply(ordered[index])
                index += 1
                continue
            }
            // Events exactly on a tick are not generated; the sender runs before the check.
            sender(tick)
            if (tick - epoch) % 1800 == 0 { check(tick) }
            tick += 120
        }
        return rows.sorted { ($0.time, $0.user, $0.seq) < ($1.time, $1.user, $1.seq) }.map(\.row)
    }

    private mutating func add(_ user: String, _ time: Int64, _ what: String) {
        let u = users[user]!
        let since = u.registered ? Self.hoursMinutes(time - u.window) : "-"
        let row = Row(utc: TimelineReferenceZones.utc(time), user: user, since: since,
                      local: TimelineReferenceZones.table(time, u.deviceZone), what: what)
        rows.append((time, user, seq, row))
        seq += 1
    }

    static func hoursMinutes(_ seconds: Int64) -> String {
        let minutes = seconds / 60
        return "\(minutes / 60)h \(minutes % 60 < 10 ? "0" : "")\(minutes % 60)m"
    }

    private func deadlines(_ u: User) -> (pre: Int64, email: Int64) {
        let email = u.window + Int64(u.hours) * 3600
        return (email - Int64(min(3, u.hours)) * 3600, email)
    }

    private mutating func apply(_ e: Event) {
        let t = e.time
        var u = users[e.user] ?? User()
        if let zone = e.zoneColumn { u.deviceZone = zone }
        users[e.user] = u
        func ask(_ at: Int64) { u.nextCheck = min(u.nextCheck ?? at, at) }
        switch e.kind {
        case .zone(let z):
            u.deviceZone = z
            users[e.user] = u
            add(e.user, t, "time zone set to \(z) (sent with the next check-in)")
        case .threshold(let h):
            u.hours = h
            if u.registered {
                let due = deadlines(u)
                if case .scheduled = u.pre?.state { u.pre!.state = .scheduled(due: due.pre) }
                if case .scheduled = u.email?.state { u.email!.state = .scheduled(due: due.email) }
                ask(due.pre)
            }
            users[e.user] = u
            add(e.user, t, "threshold set to \(h) h")
        case .pause, .resume:
            u.active = e.kind == .resume
            if u.registered && u.active { ask(t) }
            users[e.user] = u
            add(e.user, t, u.active ? "monitoring resumed" : "monitoring paused")
        case .addContact, .removeContact, .editContact:
            var refusal: String?
            var what = ""
            switch e.kind {
            case .addContact(let a):
                if u.contacts.contains(a) { refusal = "\(a) is already an emergency contact" } else { u.contacts.append(a); what = "emergency contact added: \(a)" }
            case .removeContact(let a):
                if !u.contacts.contains(a) { refusal = "\(a) is not an emergency contact" }
                else if u.registered && u.contacts.count == 1 { refusal = "\(a) is the only emergency contact; add another first" }
                else { u.contacts.removeAll { $0 == a }; what = "emergency contact removed: \(a)" }
            case .editContact(let a, let b):
                if !u.contacts.contains(a) { refusal = "\(a) is not an emergency contact" }
                else if a != b && u.contacts.contains(b) { refusal = "\(b) is already an emergency contact" }
                else { u.contacts[u.contacts.firstIndex(of: a)!] = b; what = "emergency contact changed: \(a) -> \(b)" }
            default: break
            }
            users[e.user] = u
            add(e.user, t, refusal.map { "contact change rejected: \($0)" } ?? what)
        case .emailFails(let m), .pushFails(let m):
            let email = { if case .emailFails = e.kind { return true } else { return false } }()
            u.outages.append((email, t, t + Int64(m) * 60))
            users[e.user] = u
            add(e.user, t, "\(email ? "emails" : "pushes") fail for \(m) min (\(email ? "SendGrid 429 Too Many Requests" : "FCM unavailable"))")
        case .checkIn:
            if !u.registered {
                u.registered = true
                u.window = t
                u.lastCall = t
                u.serverZone = u.deviceZone
                if u.contacts.isEmpty { u.contacts = ["contact-of-\(e.user)@example.com"] }
                ask(deadlines(u).pre)
                users[e.user] = u
                add(e.user, t, "check-in (onboarding: threshold \(u.hours) h, \(u.deviceZone))")
                return
            }
            if let last = u.lastCall, t - last < 60 {
                add(e.user, t, "check-in rejected: at most 1 heartbeat per minute (retry in \(60 - (t - last)) s)")
                return
            }
            u.window = t
            u.lastCall = t
            u.serverZone = u.deviceZone
            ask(deadlines(u).pre)
            var cancelled = 0
            for kind in [0, 1] {
                let alert = kind == 0 ? u.pre : u.email
                if case .scheduled = alert?.state { cancelled += 1 }
            }
            u.pre = nil
            u.email = nil
            var what = "check-in"
            if cancelled > 0 { what += "; cancelled \(cancelled) scheduled alert(s)" }
            if u.preSent { what += "; email to contacts cancelled"; u.preSent = false }
            users[e.user] = u
            add(e.user, t, what)
        }
    }

    private mutating func check(_ now: Int64) {
        let horizon = now + 1800
        for name in users.keys.sorted() {
            var u = users[name]!
            guard u.registered, let due = u.nextCheck, due <= horizon else { continue }
            u.nextCheck = nil
            defer { users[name] = u }
            guard u.active else { continue }
            let d = deadlines(u)
            if d.pre <= horizon && now < d.email && u.pre == nil { u.pre = Alert(state: .scheduled(due: d.pre)) }
            if d.email <= horizon && u.email == nil { u.email = Alert(state: .scheduled(due: d.email)) }
            if d.email <= horizon { continue }
            u.nextCheck = d.pre <= horizon ? d.email : d.pre
        }
    }

    private mutating func sender(_ now: Int64) {
        for name in users.keys.sorted() {
            guard users[name]!.registered else { continue }
            for isEmail in [false, true] {
                var u = users[name]!
                guard let alert = isEmail ? u.email : u.pre, case .scheduled(let due) = alert.state, due <= now else { continue }
                var next = alert
                let d = deadlines(u)
                let down = u.outages.contains { $0.email == isEmail && $0.from <= now && now < $0.until }
                if !u.active || (!isEmail && d.email <= now) {
                    next.state = .cancelled
                } else if (isEmail ? d.email : d.pre) > now {
                    next.state = .scheduled(due: isEmail ? d.email : d.pre)
                } else if !isEmail {
                    if down {
                        add(name, now, "push pre-notification failed (FCM unavailable); the next 2-minute run retries")
                    } else {
                        next.state = .sent
                        u.preSent = true
                        add(name, now, "push pre-notification: \"Tap now or we'll email your contact in 3 hours\"")
                    }
                } else {
                    next.state = .sent
                    for contact in u.contacts where !next.delivered.contains(contact) {
                        if down {
                            add(name, now, "email to \(contact) failed (SendGrid 429 Too Many Requests); the next 2-minute run retries")
                            next.state = alert.state
                            break
                        }
                        next.delivered.append(contact)
                        u.preSent = false
                        let last = TimelineReferenceZones.email(u.window, u.serverZone)
                        add(name, now, "email to \(contact): \"\(name) hasn't checked in for \(u.hours) hours. Last check-in: \(last).\"")
                    }
                }
                if isEmail { u.email = next } else { u.pre = next }
                users[name] = u
            }
        }
    }
}
