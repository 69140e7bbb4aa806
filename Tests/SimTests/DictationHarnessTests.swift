import XCTest
@testable import Sim

/// Drives a `DictationModel` on its own engine, as the keyboard model will, collecting what
/// it inserts and records.
struct DictationHarness {
    var engine = Engine<DictationEvent>()
    var timers = DictationTimers()
    var model: DictationModel
    var inserted: [(time: SimTime, text: String?)] = []
    var dictations: [DictationRecord] = []
    var sessions: [DictationSessionRecord] = []

    init(_ config: DictationConfig, seed: UInt64 = 1, replication: Int = 0) {
        model = DictationModel(config: config, seed: seed, replication: replication)
    }

    mutating func apply(_ actions: [DictationAction]) {
        for output in DictationModel.perform(actions, in: &engine, timers: &timers, wrap: { $0 }) {
            switch output {
            case .insertText(let text, _): inserted.append((engine.now, text))
            case .record(.dictation(let record)): dictations.append(record)
            case .record(.session(let record)): sessions.append(record)
            default: XCTFail("perform returned \(output)")
            }
        }
    }

    /// Runs events up to and including `time`.
    mutating func run(until time: SimTime = .never) {
        while let event = engine.next(notAfter: time) { apply(model.handle(event, at: engine.now)) }
    }

    mutating func start(_ ms: Double, onsetMs: Double, lengthMs: Double, _ text: String? = nil) {
        run(until: SimTime(milliseconds: ms) - SimDuration(nanoseconds: 1))
        apply(model.tapStart(at: SimTime(milliseconds: ms),
                             speech: (SimDuration(milliseconds: onsetMs), SimDuration(milliseconds: lengthMs), text)))
    }

    mutating func stop(_ ms: Double) throws {
        run(until: SimTime(milliseconds: ms) - SimDuration(nanoseconds: 1))
        apply(try model.tapStop(at: SimTime(milliseconds: ms)))
    }

    mutating func finish(_ ms: Double) {
        run(until: SimTime(milliseconds: ms))
        apply(model.finish(at: SimTime(milliseconds: ms)))
        run()
    }
}

extension DictationConfig {
    /// Constant latencies so that tests can state exact times: every message 3 ms (file 1 +
    /// doorbell 2), swipe back 1.5 s, insert 0.5 ms, suspension 3 s after the mic pauses,
    /// transcription 50 ms + 10 ms per second of clip.
    static var exact: DictationConfig {
        var c = DictationConfig()
        c.sharedFile = .constant(1)
        c.doorbell = .constant(2)
        c.swipeBack = .constant(1500)
        c.insert = .constant(0.5)
        c.suspendDelay = .constant(3000)
        let line = TranscriptionCurve([.init(clipMs: 0, minMs: 50, maxMs: 50), .init(clipMs: 10_000, minMs: 150, maxMs: 150)])
        c.transcription = .init(neuralEngine: line, cpu: line)
        return c
    }
}

extension DictationModelTests {
    func ms(_ x: Double) -> SimTime { SimTime(milliseconds: x) }
    func dur(_ x: Double) -> SimDuration { SimDuration(milliseconds: x) }
}
