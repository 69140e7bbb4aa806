import Scenarios
import Sim

/// One measured latency of one item, with what explains it when it is over budget.
public struct LatencySample: Sendable, Equatable {
    /// The item's index (key index, underline id, request id…).
    public var item: Int
    /// The latency.
    public var latency: SimDuration
}

/// The latencies a run measured, by metric: the figures budgets apply to.
public enum MetricSamples {
    /// Every sample of `metric` in `observations`, in record order.
    public static func samples(_ metric: LatencyMetric, in observations: ObservationBuffer) -> [LatencySample] {
        switch metric {
        case .key:
            return observations.keys.map { LatencySample(item: $0.index, latency: $0.latency) }
        case .suggestion:
            return observations.suggestions.filter { $0.outcome == .shown }.map { LatencySample(item: $0.keyIndex, latency: $0.latency) }
        case .localUnderline:
            return observations.underlines.compactMap { u in u.timeToUnderline.map { LatencySample(item: u.id, latency: $0) } }
        case .cloudConfirmation:
            return observations.underlines.compactMap { u in u.timeToConfirmation.map { LatencySample(item: u.id, latency: $0) } }
        case .underlineVerdict:
            return observations.underlines.compactMap { u in u.timeToVerdict.map { LatencySample(item: u.id, latency: $0) } }
        case .requestRoundTrip:
            return observations.requests.filter { $0.outcome == .answered }.map { LatencySample(item: $0.id, latency: $0.roundTrip) }
        case .dictationTapToRecording:
            return observations.dictations.map { LatencySample(item: $0.id, latency: $0.tapToRecording) }
        case .dictationStopToText:
            return observations.dictations.map { LatencySample(item: $0.id, latency: $0.stopToText) }
        }
    }

    /// Why an item of `metric` took as long as it did, in words.
    public static func cause(_ metric: LatencyMetric, item: Int, in observations: ObservationBuffer) -> String {
        var causes = ViolationCauses(observations)
        return causes.cause(metric, item: item)
    }

    /// Why a key took as long as it did; `kill` is the kill that held it, if one did.
    static func keyCause(_ key: KeyObservation, kill: KillRecord?) -> String {
        if let kill {
            return "extension restarting: killed at \(TextTable.fixed(kill.footprintMegabytes, 1)) MB over the "
                + "\(TextTable.fixed(kill.limitMegabytes, 1)) MB limit, restart took \(ms(kill.restartDuration))"
        }
        guard key.wait > .zero else { return "key handler ran \(ms(key.inserted - key.start))" }
        var parts: [String] = []
        if let running = KeyboardWork(code: key.ahead.running) { parts.append("\(running.rawValue) running") }
        if key.ahead.queuedAhead > 0 {
            let kinds = KeyboardWork.allCases.filter { key.ahead.queuedKinds & (1 << UInt32($0.code)) != 0 }.map(\.rawValue)
            parts.append("\(key.ahead.queuedAhead) queued (\(kinds.joined(separator: ", ")))")
        }
        return "waited \(ms(key.wait)) for the main thread behind " + (parts.isEmpty ? "earlier work" : parts.joined(separator: ", "))
    }

    /// Why a shown suggestion took as long as it did.
    static func suggestionCause(_ s: SuggestionObservation) -> String {
        s.waited > s.ran ? "waited \(ms(s.waited)) in thread queues (ran \(ms(s.ran)))" : "lookup, re-rank and draw ran \(ms(s.ran))"
    }

    /// Why a request's round trip took as long as it did.
    static func requestCause(_ r: RequestObservation) -> String {
        if r.attempts > 1 { return "\(r.attempts) attempts (\(r.timeouts) timed out, \(r.offlineFailures) offline)" }
        return "network \(ms(r.networkRoundTrip)) + cloud \(ms(r.service))"
    }

    /// Why a dictation took as long as it did, for `metric` (one of the two dictation metrics).
    static func dictationCause(_ metric: LatencyMetric, _ d: DictationRecord) -> String {
        if metric == .dictationTapToRecording {
            return d.coldStart ? "cold start: the app had to open (\(d.coldStartCost.map(ms) ?? "?"))" : "doorbell and shared file"
        }
        var parts = ["transcription \(ms(d.transcriptionEnd - d.transcriptionStart)) on the \(d.engine.rawValue)"]
        if d.engineWait > .zero { parts.append("waited \(ms(d.engineWait)) for the speech model") }
        if d.modelLoadWait > .zero { parts.append("model still loading \(ms(d.modelLoadWait))") }
        return parts.joined(separator: ", ")
    }

    static func ms(_ d: SimDuration) -> String { "\(TextTable.fixed(d.milliseconds, 2)) ms" }
}
