// The debounce timer's records: every arm, re-arm, cancel and fire leaves as a
// `DebounceObservation`, so that a timeline draws the timer as it was rather than inferring
// it from the edits and the requests.

extension CloudClient {
    /// The timer was armed (or, `rearmed`, moved) by an edit at `now` to fire at `due`.
    mutating func recordArming<Sink: ObservationSink>(rearmed: Bool, due: SimTime, trigger: RequestTrigger, keyIndex: Int?,
                                                      now: SimTime, sink: inout Sink) {
        arming = (keyIndex, trigger)
        sink.recordDebounce(DebounceObservation(time: now, event: rearmed ? .rearm : .arm, due: due, keyIndex: keyIndex,
                                                trigger: trigger))
    }

    /// The timer fired at `now` (due at `due`); a request with an id from `sentFrom` on, if
    /// one was made, is the one it sent.
    func recordFire<Sink: ObservationSink>(due: SimTime, trigger: RequestTrigger, sentFrom: Int, now: SimTime, sink: inout Sink) {
        sink.recordDebounce(DebounceObservation(time: now, event: .fire, due: due, keyIndex: arming?.keyIndex, trigger: trigger,
                                                requestID: requestsSent > sentFrom ? sentFrom : nil))
    }

    /// The timer, if armed, is about to be cancelled.
    func recordCancel<Sink: ObservationSink>(io: KeyboardIO, sink: inout Sink) {
        guard let due = debounceTimer.fireTime(in: io.engine), let arming else { return }
        sink.recordDebounce(DebounceObservation(time: io.now, event: .cancel, due: due, keyIndex: arming.keyIndex, trigger: arming.trigger))
    }
}
