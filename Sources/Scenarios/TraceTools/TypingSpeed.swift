import Sim

/// What `TraceStatistics` reads of a trace for its typing speed, apart from the events'
/// times: the net characters typed, and the taps between which typing time runs. Scaling a
/// typist to a speed measures the same events at new times on every round
/// (`TypingTimeline`), so it reads the events once and the times on each round.
struct TypingSpeed: Sendable {
    /// Grapheme clusters typed by keys, less backspaces (not below zero).
    let netCharacters: Int
    /// The places of the taps (keys and backspaces) among the events, in order, with −1
    /// where a hidden keyboard or a dictation stops the typing time (the next tap starts it
    /// again).
    let taps: [Int32]

    /// The taps of `events`.
    init(_ events: [TraceEvent]) {
        var keyCharacters = 0
        var backspaceTaps = 0
        var taps: [Int32] = []
        taps.reserveCapacity(events.count)
        for (index, event) in events.enumerated() {
            switch event.kind {
            // One byte is one character: most keys, counted without walking grapheme clusters.
            case .key(let inserted, _, _): keyCharacters += inserted.utf8.count == 1 ? 1 : inserted.count
            case .backspace: backspaceTaps += 1
            case .keyboardHidden, .dictationStart: taps.append(-1); continue
            default: continue
            }
            taps.append(Int32(index))
        }
        netCharacters = max(0, keyCharacters - backspaceTaps)
        self.taps = taps
    }

    /// Net words a minute of typing time, as `TraceStatistics.wordsPerMinute` measures them,
    /// with the event at each index at `nanos(index)`; `nil` without typing time.
    func wordsPerMinute(nanos: (Int) -> Int64) -> Double? {
        var typingNanos: Int64 = 0
        var lastTapTime: SimTime?
        for tap in taps {
            guard tap >= 0 else { lastTapTime = nil; continue }
            // A tap, as `TraceStatistics.tap(at:)` counts it.
            let time = SimTime(nanoseconds: nanos(Int(tap)))
            if let interval = TraceStatistics.typingInterval(after: lastTapTime, at: time) { typingNanos &+= interval }
            lastTapTime = time
        }
        return TraceStatistics.wordsPerMinute(netCharacters: netCharacters, typingNanos: typingNanos)
    }
}
