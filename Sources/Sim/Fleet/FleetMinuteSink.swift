/// A fleet session's observation sink: bins what the keyboard saw into its partition's
/// minutes by fleet time (the session's own time plus its start), keeping nothing else.
/// Keys to the minute their text was inserted; local underlines to the minute they ended
/// (the verdict coverage's denominator) and their verdicts to the minute the verdict came;
/// the answered requests' first token and service to the minute the answer reached the
/// keyboard.
public struct FleetMinuteSink: ObservationSink {
    /// The partition's minutes (the lane's of the thread the session steps on: see
    /// `FleetMinuteBins.absorb`).
    public var bins: FleetMinuteBins
    /// The session's start, fleet nanoseconds.
    public let startNanos: Int64

    /// A sink adding to `bins` for a session that starts at fleet time `startNanos`.
    public init(bins: FleetMinuteBins, startNanos: Int64) {
        self.bins = bins
        self.startNanos = startNanos
    }

    public mutating func record(_ observation: Observation) {
        switch observation {
        case .key(let key): recordKey(key)
        case .underline(let underline):
            guard underline.origin == .local else { return }
            bins.update(at: startNanos + underline.end.nanoseconds) { minute in
                minute.underlinesEnded += 1
                if underline.timeToVerdict != nil { minute.underlinesWithVerdict += 1 }
            }
            if let verdict = underline.timeToVerdict {
                bins.update(at: startNanos + (underline.wordFinished + verdict).nanoseconds) { $0.verdict.add(verdict.nanoseconds) }
            }
        case .request(let request):
            guard request.outcome == .answered, request.service > .zero else { return }
            bins.update(at: startNanos + request.end.nanoseconds) { minute in
                minute.firstToken.add(request.firstToken.nanoseconds)
                minute.service.add(request.service.nanoseconds)
            }
        default: return
        }
    }

    public mutating func recordKey(_ key: KeyObservation) {
        bins.update(at: startNanos + key.inserted.nanoseconds) { $0.keys += 1 }
    }

    public mutating func recordTask(_ task: TaskObservation) {}
    public mutating func recordSuggestion(_ suggestion: SuggestionObservation) {}
    public mutating func recordDebounce(_ event: DebounceObservation) {}
}
