import XCTest
@testable import Sim

/// Drives a `KeyboardSimulation` one trace event at a time, as `DictationHarness` drives the
/// dictation model: the clock moves only when told, every component's invariants are
/// checked after every event, and each component's state can be read between steps.
struct KeyboardHarness {
    var simulation: KeyboardSimulation
    var sink = ObservationBuffer()
    /// Engine and trace events handled so far.
    private(set) var steps = 0
    /// Every check request sent so far: when it left (ms) and the text it carried, read from
    /// the document at the step that sent it (the text from the request's first token, as
    /// many characters as it counted). Requests killed at the instant they left read "?".
    private(set) var sent: [(ms: Double, text: String)] = []

    init(_ config: KeyboardConfig, seed: UInt64 = 1, replication: Int = 0, intendedText: String? = nil,
         backend: (any CloudBackend)? = nil) {
        simulation = KeyboardSimulation(config: config, seed: seed, replication: replication,
                                        header: TraceHeader(intendedText: intendedText), backend: backend)
        simulation.start(into: &sink)
        checked()
    }

    /// The simulated time now.
    var now: SimTime { simulation.io.now }
    /// The document's text.
    var text: String { simulation.io.text.text }

    /// Runs every engine event up to and including `time`.
    mutating func advance(to time: SimTime) {
        while let event = simulation.io.engine.next(notAfter: time) {
            simulation.handle(event, into: &sink)
            checked()
        }
    }

    /// Runs every engine event for `ms` more milliseconds.
    mutating func advance(byMs ms: Double) { advance(to: now + SimDuration(milliseconds: ms)) }

    /// Runs the engine up to `event`, then hands `event` to the simulation. The event takes
    /// its place in the event order as `KeyboardSimulation.run` gives it: after the events
    /// already scheduled at its time.
    mutating func feed(_ event: TraceEvent) throws {
        let reservation = simulation.io.engine.reserve(at: event.time)
        while let step = simulation.io.engine.next(or: reservation) {
            guard case .event(let scheduled) = step else { break }
            simulation.handle(scheduled, into: &sink)
            checked()
        }
        try simulation.handle(event, into: &sink)
        checked()
    }

    /// Feeds a trace event of `kind` at `ms`.
    mutating func feed(_ kind: TraceEvent.Kind, atMs ms: Double) throws {
        try feed(TraceEvent(time: SimTime(milliseconds: ms), kind: kind))
    }

    /// Feeds a key tap of each character of `typed`, `everyMs` apart from `startMs`.
    mutating func type(_ typed: String, everyMs: Double = 100, fromMs startMs: Double) throws {
        for (index, character) in typed.enumerated() {
            try feed(TraceEvent(time: SimTime(milliseconds: startMs + Double(index) * everyMs),
                                kind: .key(text: String(character), touchUp: nil, point: nil)))
        }
    }

    /// Ends the trace and runs until nothing is pending; the queue is empty at the end.
    mutating func finish() -> ReplicationSummary {
        simulation.traceEnded(into: &sink)
        advance(to: .never)
        let summary = simulation.finish(into: &sink)
        XCTAssertTrue(simulation.io.engine.isIdle, "nothing is left in the queue")
        return summary
    }

    private mutating func checked() {
        steps += 1
        simulation.checkInvariants()
        while sent.count < simulation.cloud.requestsSent {
            let text = simulation.cloud.requests[sent.count].map { request in
                String(simulation.io.text.string(utf8: request.fromUTF8..<simulation.io.text.utf8.count).prefix(request.characters))
            }
            sent.append((now.milliseconds, text ?? "?"))
        }
    }
}

extension KeyboardConfig {
    /// Constant costs and certain checkers, so tests can state exact times: keys 2 ms, other
    /// work 1 ms, a 50 ms network without losses, a 300 ms cloud, a fixed 400 ms debounce.
    static var exact: KeyboardConfig {
        var config = KeyboardConfig()
        for kind in KeyboardWork.allCases { config.work[kind]!.cost = .constant(kind == .key ? 2 : 1) }
        config.checker.recall = 1
        config.checker.falsePositiveRate = 0
        config.cloud.recall = 1
        config.cloud.falsePositiveRate = 0
        config.network.goodRoundTrip = .constant(50)
        config.network.goodLoss = 0
        config.cloud.service = .constant(300)
        config.debounce = .fixed(delay: .milliseconds(400))
        return config
    }
}
