import Sim

/// The minutes of one partition while it runs: every session's sink adds to them, and the
/// runner adds the backend's meter at each minute boundary. One partition runs on one
/// thread, so its minutes are shared by reference without locks.
final class FleetMinuteBins {
    /// The minutes so far (grown as fleet time passes).
    private(set) var minutes: [FleetMinute]
    /// The partition's replicas.
    let replicas: Int

    /// The span's minutes, empty.
    init(spanMinutes: Int, replicas: Int) {
        self.replicas = replicas
        minutes = (0..<spanMinutes).map { FleetMinute(minute: $0, replicas: replicas) }
    }

    /// The minute holding fleet time `nanos`, grown when past the last.
    func index(_ nanos: Int64) -> Int {
        let index = Int(max(0, nanos) / FleetMinute.lengthNanos)
        while minutes.count <= index { minutes.append(FleetMinute(minute: minutes.count, replicas: replicas)) }
        return index
    }

    /// Changes the minute holding fleet time `nanos`.
    func update(at nanos: Int64, _ change: (inout FleetMinute) -> Void) {
        change(&minutes[index(nanos)])
    }

    /// Adds ∫ open sessions over [from, to) (fleet nanoseconds), cut at minute boundaries.
    func addOpen(from: Int64, to: Int64) {
        var start = from
        while start < to {
            let minute = index(start)
            let end = min(to, Int64(minute + 1) * FleetMinute.lengthNanos)
            minutes[minute].openSessionNanos += end - start
            start = end
        }
    }
}

/// A fleet session's observation sink: bins what the keyboard saw into its partition's
/// minutes by fleet time (the session's own time plus its start), keeping nothing else.
/// Keys to the minute their text was inserted; local underlines to the minute they ended
/// (the verdict coverage's denominator) and their verdicts to the minute the verdict came;
/// the answered requests' first token and service to the minute the answer reached the
/// keyboard.
struct FleetMinuteSink: ObservationSink {
    let bins: FleetMinuteBins
    /// The session's start, fleet nanoseconds.
    let startNanos: Int64

    mutating func record(_ observation: Observation) {
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

    mutating func recordKey(_ key: KeyObservation) {
        bins.update(at: startNanos + key.inserted.nanoseconds) { $0.keys += 1 }
    }

    mutating func recordTask(_ task: TaskObservation) {}
    mutating func recordSuggestion(_ suggestion: SuggestionObservation) {}
    mutating func recordDebounce(_ event: DebounceObservation) {}
}
