import Sim

/// Finds why items went over budget, for every violation of a run: the records are indexed
/// by item once (the first record of each item, as a search in record order finds), so a run
/// with n violations costs O(n + records), not O(n × records) — a trace of many keys at one
/// instant puts every key over budget.
struct ViolationCauses {
    private let observations: ObservationBuffer
    private var keys: [Int: KeyObservation]?
    private var kills: [Int: KillRecord]?
    private var suggestions: [Int: SuggestionObservation]?
    private var requests: [Int: RequestObservation]?
    private var dictations: [Int: DictationRecord]?

    init(_ observations: ObservationBuffer) { self.observations = observations }

    /// Why `item` of `metric` took as long as it did, in words; "" when no record says.
    mutating func cause(_ metric: LatencyMetric, item: Int) -> String {
        switch metric {
        case .key:
            if keys == nil {
                keys = Self.firstByItem(observations.keys) { $0.index }
                var held: [Int: KillRecord] = [:]
                for kill in observations.extensionRecords.kills {
                    for key in kill.keysHeld where held[key] == nil { held[key] = kill }
                }
                kills = held
            }
            guard let key = keys![item] else { return "" }
            return MetricSamples.keyCause(key, kill: kills![item])
        case .suggestion:
            if suggestions == nil { suggestions = Self.firstByItem(observations.suggestions.lazy.filter { $0.outcome == .shown }) { $0.keyIndex } }
            return suggestions![item].map(MetricSamples.suggestionCause) ?? ""
        case .localUnderline:
            return "local check and chip drawing queued behind other work"
        case .cloudConfirmation, .underlineVerdict:
            return "the cloud answered late (debounce wait plus round trip)"
        case .requestRoundTrip:
            if requests == nil { requests = Self.firstByItem(observations.requests) { $0.id } }
            return requests![item].map(MetricSamples.requestCause) ?? ""
        case .dictationTapToRecording, .dictationStopToText:
            if dictations == nil { dictations = Self.firstByItem(observations.dictations) { $0.id } }
            return dictations![item].map { MetricSamples.dictationCause(metric, $0) } ?? ""
        }
    }

    private static func firstByItem<S: Sequence>(_ records: S, _ item: (S.Element) -> Int) -> [Int: S.Element] {
        var found: [Int: S.Element] = [:]
        for record in records {
            let key = item(record)
            if found[key] == nil { found[key] = record }
        }
        return found
    }
}
