import Sim

/// Message-passing workloads for measuring dispatch (`rehearse bench`, `Benchmarks/`): the same
/// ping-pong and fan-in on simulated actors and on Swift's default executor. Every actor touches
/// its own state after each reply, so the optimizer keeps both hops of a round trip.
extension KernelWorkload {
    /// `roundTrips` calls from one simulated actor to another (2 jobs each); inside a simulation.
    public static func pingPong(roundTrips: Int) async {
        await SimPing().play(with: SimPong(), roundTrips: roundTrips)
    }

    /// `messages` calls from `senders` simulated actors into one sink; inside a simulation.
    public static func fanIn(messages: Int, senders: Int) async {
        let sink = SimSink()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<senders {
                let sender = SimSender()
                group.addTask { await sender.send(messages / senders, to: sink) }
            }
        }
    }

    /// `pingPong` on default actors (Swift's default executor), for comparison.
    public static func nativePingPong(roundTrips: Int) async {
        await NativePing().play(with: NativePong(), roundTrips: roundTrips)
    }

    /// `fanIn` on default actors (Swift's default executor), for comparison.
    public static func nativeFanIn(messages: Int, senders: Int) async {
        let sink = NativeSink()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<senders {
                let sender = NativeSender()
                group.addTask { await sender.send(messages / senders, to: sink) }
            }
        }
    }
}

actor SimPong: SimActor {
    nonisolated let simExecutor = SimExecutor("pong")
    var count = 0
    func pong() { count += 1 }
}

actor SimPing: SimActor {
    nonisolated let simExecutor = SimExecutor("ping")
    var received = 0
    func play(with pong: SimPong, roundTrips: Int) async {
        for _ in 0..<roundTrips {
            await pong.pong()
            received += 1
        }
    }
}

actor SimSender: SimActor {
    nonisolated let simExecutor = SimExecutor("sender")
    var sent = 0
    func send(_ messages: Int, to sink: SimSink) async {
        for _ in 0..<messages {
            await sink.receive()
            sent += 1
        }
    }
}

actor SimSink: SimActor {
    nonisolated let simExecutor = SimExecutor("sink")
    var count = 0
    func receive() { count += 1 }
}

actor NativePong {
    var count = 0
    func pong() { count += 1 }
}

actor NativePing {
    var received = 0
    func play(with pong: NativePong, roundTrips: Int) async {
        for _ in 0..<roundTrips {
            await pong.pong()
            received += 1
        }
    }
}

actor NativeSender {
    var sent = 0
    func send(_ messages: Int, to sink: NativeSink) async {
        for _ in 0..<messages {
            await sink.receive()
            sent += 1
        }
    }
}

actor NativeSink {
    var count = 0
    func receive() { count += 1 }
}
