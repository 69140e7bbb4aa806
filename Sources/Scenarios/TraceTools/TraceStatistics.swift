import Foundation
import Sim

/// Summary figures of a trace, gathered event by event in bounded memory (the rebuilt text
/// aside): what `keysim trace stats` prints.
///
/// - Taps are `key` and `backspace` events. The interval between two taps is an inter-key
///   interval unless it is longer than `pauseNanos` (the typist stopped) or a
///   `keyboard.hide` or `dictation.start` came between them.
/// - Typing time is the sum of the inter-key intervals; typing speed is the net characters
///   typed (grapheme clusters inserted by keys, less backspaces) per minute of typing time,
///   five characters to a word.
/// - Words and sentences are counted in the text the trace rebuilds (`ReplayedText`):
///   words are runs of characters other than white space, as in the keyboard model.
/// - Dictation time runs from each `dictation.start` to its `dictation.stop` (or to the
///   last event when the trace ends first).
/// - A `field` event ends a field and starts the next: words and sentences add up over the
///   fields (less the text a field opened with). Each field in which something was typed
///   and whose intended text is known (the header's for the first field, a field event's
///   `intended` for the next) is compared with it: the errors left are the minimal
///   word-level edit distance and the minimum string distance over characters.
/// - Gaps are the times between consecutive edits (key, backspace, suggestion, paste),
///   across hides and field changes too, but not across a dictation: the pause structure
///   counts the gaps over 400 ms, 1 s and 2 s and the longest one.
public struct TraceStatistics: Sendable {
    /// An interval longer than this is a pause, not typing: 5 s.
    public static let pauseNanos: Int64 = 5_000_000_000
    /// The gap lengths the pause structure counts: 400 ms (the debounce after a sentence
    /// end), 1 s and 2 s (the debounce otherwise).
    public static let gapThresholdsNanos: [Int64] = [400_000_000, 1_000_000_000, 2_000_000_000]

    /// The trace's header.
    public let header: TraceHeader
    /// Events seen.
    public private(set) var eventCount = 0
    /// Events per type, in the order of `TraceEvent.Kind.wireNames`.
    public private(set) var countsByType = [Int](repeating: 0, count: TraceEvent.Kind.wireNames.count)
    /// The time of the first event.
    public private(set) var firstTime: SimTime?
    /// The time of the last event.
    public private(set) var lastTime: SimTime?
    /// `key` events.
    public private(set) var keyTaps = 0
    /// `backspace` events.
    public private(set) var backspaceTaps = 0
    /// Grapheme clusters inserted by `key` events.
    public private(set) var keyCharacters = 0
    /// The inter-key intervals.
    public private(set) var intervals = IntervalSample()
    /// Dictation sessions started.
    public private(set) var dictationCount = 0
    /// Time spent dictating, in nanoseconds.
    public private(set) var dictationNanos: Int64 = 0
    /// The text the trace types.
    public private(set) var text = ReplayedText()

    /// Gaps between edits longer than each of `gapThresholdsNanos`.
    public private(set) var gapCounts = [Int](repeating: 0, count: TraceStatistics.gapThresholdsNanos.count)
    /// The longest gap between two edits, in nanoseconds.
    public private(set) var longestGapNanos: Int64 = 0
    /// Fields typed in, counted as each ends (a field event starts a new one; a field whose text never changed
    /// is not counted).
    public private(set) var fieldCount = 0
    /// Words left wrong: the word-level edit distance, summed over the fields compared.
    public private(set) var wordErrorsLeft = 0
    /// Intended words of the fields compared.
    public private(set) var intendedWordsCompared = 0
    /// Characters left wrong: the minimum string distance, summed over the fields compared.
    public private(set) var characterErrorsLeft = 0
    /// Intended characters of the fields compared (their longer side, as the error rate's
    /// denominator).
    public private(set) var charactersCompared = 0
    /// Measured durations (`measure` lines) by kind, in nanoseconds, in trace order.
    public private(set) var measurements: [String: [Int64]] = [:]

    private var lastTapTime: SimTime?
    private var lastEditTime: SimTime?
    private var dictationStartTime: SimTime?
    private var closedWords = 0
    private var closedSentences = 0
    private var closedCharacters = 0
    private var openingText = ""
    private var fieldIntendedText: String?
    private var lastFieldClosed = false

    /// Starts the statistics of a trace with `header`.
    public init(header: TraceHeader) {
        self.header = header
        fieldIntendedText = header.intendedText
    }

    /// Adds a measured duration of the trace; it is not an event.
    public mutating func add(_ measurement: TraceMeasurement) {
        measurements[measurement.kind, default: []].append(measurement.duration.nanoseconds)
    }

    /// The measured durations by kind, sorted by kind.
    public var measuredNanosByKind: [(kind: String, durations: [Int64])] {
        measurements.keys.sorted().map { ($0, measurements[$0]!) }
    }

    /// The median of `durations` in milliseconds, as text with two decimals.
    public static func milliseconds(median durations: [Int64]) -> String {
        let sorted = durations.sorted()
        let middle = sorted.count / 2
        let nanos = sorted.count % 2 == 1 ? Double(sorted[middle]) : (Double(sorted[middle - 1]) + Double(sorted[middle])) / 2
        return NumberText.fixed(nanos / 1e6, 2)
    }

    /// Adds the next event of the trace.
    public mutating func add(_ event: TraceEvent) {
        eventCount += 1
        countsByType[Self.typeIndex(event.kind)] += 1
        if firstTime == nil { firstTime = event.time }
        lastTime = event.time
        if case .field(let field) = event.kind {
            closeField()
            openingText = field.text
            fieldIntendedText = field.intendedText
        }
        text.apply(event.kind)
        switch event.kind {
        case .key(let inserted, _, _):
            keyTaps += 1
            keyCharacters += inserted.count
            tap(at: event.time)
            edit(at: event.time)
        case .backspace:
            backspaceTaps += 1
            tap(at: event.time)
            edit(at: event.time)
        case .suggestionPicked, .paste:
            edit(at: event.time)
        case .keyboardHidden:
            lastTapTime = nil
        case .dictationStart:
            lastTapTime = nil
            lastEditTime = nil
            closeDictation(at: event.time)
            dictationCount += 1
            dictationStartTime = event.time
        case .dictationStop:
            closeDictation(at: event.time)
        default:
            break
        }
    }

    private mutating func tap(at time: SimTime) {
        if let interval = Self.typingInterval(after: lastTapTime, at: time) { intervals.add(interval) }
        lastTapTime = time
    }

    /// The typing time between the tap at `last` and one at `time`, in nanoseconds: the
    /// interval, unless there was no tap before (the keyboard shown again, a dictation) or
    /// it is a pause (over `pauseNanos`).
    static func typingInterval(after last: SimTime?, at time: SimTime) -> Int64? {
        guard let last else { return nil }
        let interval = (time - last).nanoseconds
        return interval <= pauseNanos ? interval : nil
    }

    private mutating func edit(at time: SimTime) {
        if let last = lastEditTime {
            let gap = (time - last).nanoseconds
            longestGapNanos = max(longestGapNanos, gap)
            for (index, threshold) in Self.gapThresholdsNanos.enumerated() where gap > threshold {
                gapCounts[index] += 1
            }
        }
        lastEditTime = time
    }

    /// Adds the current field's words and, when it was typed in and its intended text is
    /// known, its errors.
    private mutating func closeField() {
        let final = text.text
        if final != openingText { fieldCount += 1 }
        closedWords += max(0, TextCounts.words(final) - TextCounts.words(openingText))
        closedSentences += max(0, TextCounts.sentences(final) - TextCounts.sentences(openingText))
        closedCharacters += max(0, final.count - openingText.count)
        guard final != openingText, let intended = fieldIntendedText,
              let characters = WordAlignment.characterDistance(typed: final, intended: intended) else { return }
        wordErrorsLeft += WordAlignment.distance(typed: final, intended: intended)
        intendedWordsCompared += TextCounts.words(intended)
        characterErrorsLeft += characters
        charactersCompared += max(final.count, intended.count)
    }

    private mutating func closeDictation(at time: SimTime) {
        if let start = dictationStartTime { dictationNanos += (time - start).nanoseconds }
        dictationStartTime = nil
    }

    /// The statistics with a dictation still running counted up to the last event.
    public func finished() -> TraceStatistics {
        var copy = self
        if let lastTime { copy.closeDictation(at: lastTime) }
        if !copy.lastFieldClosed {
            copy.closeField()
            copy.lastFieldClosed = true
        }
        return copy
    }

    /// Time from the first event to the last, in nanoseconds.
    public var durationNanos: Int64 {
        guard let firstTime, let lastTime else { return 0 }
        return (lastTime - firstTime).nanoseconds
    }

    /// The sum of the inter-key intervals, in nanoseconds.
    public var typingNanos: Int64 { intervals.sumNanos }

    /// Grapheme clusters typed by keys, less backspaces (not below zero).
    public var netCharacters: Int { max(0, keyCharacters - backspaceTaps) }

    /// Net words (five characters each) per minute of typing time; `nil` without typing time.
    public var wordsPerMinute: Double? { Self.wordsPerMinute(netCharacters: netCharacters, typingNanos: typingNanos) }

    /// Net words (five characters each) per minute of `typingNanos`; `nil` without typing time.
    static func wordsPerMinute(netCharacters: Int, typingNanos: Int64) -> Double? {
        guard typingNanos > 0 else { return nil }
        return Double(netCharacters) / 5 / (Double(typingNanos) / 60e9)
    }

    /// `wordsPerMinute` of the statistics of `events`, without the rest of them (no text
    /// replayed, no words aligned): what scaling a typist to a speed measures on every round.
    public static func wordsPerMinute(of events: [TraceEvent]) -> Double? {
        TypingSpeed(events).wordsPerMinute { events[$0].time.nanoseconds }
    }

    /// Backspaces as a share of all taps; `nil` without taps.
    public var backspaceRate: Double? {
        let taps = keyTaps + backspaceTaps
        return taps == 0 ? nil : Double(backspaceTaps) / Double(taps)
    }

    /// Words typed, over all fields.
    public var words: Int {
        lastFieldClosed ? closedWords : closedWords + max(0, TextCounts.words(text.text) - TextCounts.words(openingText))
    }

    /// Sentences typed, over all fields.
    public var sentences: Int {
        lastFieldClosed ? closedSentences
            : closedSentences + max(0, TextCounts.sentences(text.text) - TextCounts.sentences(openingText))
    }

    /// Characters typed, over all fields.
    public var characters: Int {
        lastFieldClosed ? closedCharacters : closedCharacters + max(0, text.count - openingText.count)
    }

    /// Gaps over each of `gapThresholdsNanos` per 100 words; `nil` without words.
    public var gapsPer100Words: [Double]? {
        guard words > 0 else { return nil }
        return gapCounts.map { Double($0) * 100 / Double(words) }
    }

    /// Words left wrong per intended word compared; `nil` when no field was compared.
    public var wordErrorRate: Double? {
        intendedWordsCompared == 0 ? nil : Double(wordErrorsLeft) / Double(intendedWordsCompared)
    }

    /// Characters left wrong per character compared (Soukoreff and MacKenzie's uncorrected
    /// error rate); `nil` when no field was compared.
    public var characterErrorRate: Double? {
        charactersCompared == 0 ? nil : Double(characterErrorsLeft) / Double(charactersCompared)
    }

    /// The position of a kind's wire name in `TraceEvent.Kind.wireNames`.
    static func typeIndex(_ kind: TraceEvent.Kind) -> Int {
        switch kind {
        case .key: 0
        case .backspace: 1
        case .suggestionPicked: 2
        case .cursorMove: 3
        case .paste: 4
        case .keyboardShown: 5
        case .keyboardHidden: 6
        case .languageSwitch: 7
        case .network: 8
        case .dictationStart: 9
        case .dictationStop: 10
        case .chipAccepted: 11
        case .field: 12
        }
    }
}
