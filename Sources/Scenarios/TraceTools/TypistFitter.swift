import Foundation
import Sim

/// Measures a `TypistProfile` from recorded traces: the intervals of each context, the
/// pauses, slips and their corrections, picked suggestions, the messages and the touches.
/// What `keysim trace fit` runs; the rules are in `docs/trace-format.md`, "Fitting a typist".
///
/// Intervals are filed by `TypingContext`, as the typist draws them. Intervals over the
/// pause threshold are pauses: per context the share of pauses and a lognormal (by the
/// moments of the logarithm) of the rest; over all contexts a log-logistic of the pauses'
/// excess (by the moments of the logarithm: its log is logistic). Corrections are counted
/// from the edits: a backspace run that starts after a space, or a cursor move back, is a
/// slip noticed after the word, any other backspace run one noticed within it; the slips
/// left are the minimum string distance between each field and its intended text. A context
/// with fewer than `minimumSamples` intervals keeps the `copying` preset's timing, scaled by
/// the fitted within-word median, and is named in `notes`. The hesitations and the rhythm
/// (`TypistFitter+Rhythm.swift`) are fitted where the data supports them.
public struct TypistFitter: Sendable {
    /// Intervals below which a context keeps the preset's timing.
    public static let minimumSamples = 20
    /// The pause threshold unless the within-word intervals are slow: then four times their
    /// median.
    public static let defaultThresholdMs = 1000.0

    /// The intervals measured, by context (`TypistProfile.Context.allCases` order), in ns.
    public private(set) var samples = [[Int64]](repeating: [], count: TypistProfile.Context.allCases.count)
    /// From the last edit of a message to its sending, in ns.
    public private(set) var sendDelays: [Int64] = []
    /// From a sending to the next message (its keyboard show, or its first edit), in ns.
    public private(set) var gaps: [Int64] = []
    /// Message boundaries seen, and those with the keyboard hidden.
    public private(set) var boundaries = 0, hiddenBoundaries = 0
    /// Slips noticed within a word, after it, and fixed by a cursor move.
    public private(set) var inWordCorrections = 0, afterWordCorrections = 0, cursorFixes = 0
    /// Letters typed by keys, and letters deleted by backspaces.
    public private(set) var lettersTyped = 0, lettersDeleted = 0
    /// Suggestions picked, and the shortest picked word.
    public private(set) var picks = 0
    /// The messages' intended texts (or the texts typed, without one), in order.
    public private(set) var messages: [String] = []
    /// The messages as scripts, in the order of `messages`: each transcript a dictation was
    /// recorded for a dictation of its own, the rest typed; what a resynthesis types.
    public private(set) var scripts: [SynthScript] = []
    /// Whether any trace sends messages (a `field` event that clears the field).
    public private(set) var sendsMessages = false
    /// The traces' statistics (errors left, speed, pauses), one per trace.
    public private(set) var statistics: [TraceStatistics] = []
    /// Every interval of `samples`, in the order measured, with its key pair and the interval
    /// of the edit before it: what the rhythm is fitted from.
    private(set) var records: [IntervalRecord] = []

    private var shortestPick = Int.max
    private var touchSquares = 0.0, touchCount = 0
    private var language: String?
    private var current: TraceWalk?

    /// An empty fitter.
    public init() {}

    /// The state of the walk through one trace.
    private struct TraceWalk {
        var statistics: TraceStatistics
        var text = ReplayedText()
        var previousEdit: TraceEvent.Kind?
        var lastEditTime: SimTime?
        var showSince: SimTime?
        var clearSince: SimTime?
        var hiddenSinceEdit = false
        var fieldIntended: [String] = []
        var headerIntended: String?
        /// The dictations so far, each with the index in `fieldIntended` of the field it went into.
        var dictations: [(field: Int, segment: SynthScript.Segment)] = []
        var dictationStart: (time: SimTime, audio: DictationAudio)?
        /// The record of the previous edit's interval, while edits follow one another.
        var lastRecord: Int?
    }

    /// Starts the next trace.
    public mutating func begin(_ header: TraceHeader) {
        finishTrace()
        language = language ?? header.language
        current = TraceWalk(statistics: TraceStatistics(header: header), headerIntended: header.intendedText)
    }

    /// Adds the next event of the current trace.
    /// - Precondition: `begin` was called.
    public mutating func add(_ event: TraceEvent) {
        precondition(current != nil, "begin(_:) a trace before adding its events")
        var walk = current!
        current = nil
        walk.statistics.add(event)
        let t = event.time
        // Any other event (a show, a field, a dictation, a switch) parts two edits: no pair.
        if !TypingContext.isEdit(event.kind) { walk.lastRecord = nil }
        switch event.kind {
        case .keyboardShown:
            if let clear = walk.clearSince, walk.hiddenSinceEdit { gaps.append((t - clear).nanoseconds) }
            walk.showSince = t
        case .keyboardHidden:
            walk.hiddenSinceEdit = true
        case .field(let field):
            if field.change == .cleared {
                sendsMessages = true
                if let last = walk.lastEditTime, !walk.hiddenSinceEdit, walk.clearSince == nil {
                    sendDelays.append((t - last).nanoseconds)
                }
                walk.clearSince = t
            }
            if let intended = field.intendedText { walk.fieldIntended.append(intended) }
            walk.previousEdit = nil
        case .dictationStart(let audio):
            walk.dictationStart = (t, audio)
            walk.previousEdit = nil
        case .dictationStop:
            if let start = walk.dictationStart {
                walk.dictations.append((walk.fieldIntended.count - 1, Self.dictation(start.audio, lasting: t - start.time)))
            }
            walk.dictationStart = nil
            walk.previousEdit = nil
        default:
            break
        }
        if TypingContext.isEdit(event.kind) { edit(event, &walk) }
        walk.text.apply(event.kind)
        current = walk
    }

    private mutating func edit(_ event: TraceEvent, _ walk: inout TraceWalk) {
        let t = event.time
        let boundary = walk.clearSince != nil
        if boundary {
            boundaries += 1
            if walk.hiddenSinceEdit { hiddenBoundaries += 1 }
        }
        var record: Int?
        if let show = walk.showSince {
            // An importer puts the show at the first key: zero says nothing about the start.
            if t > show { record = append(.messageStart, (t - show).nanoseconds, pair: nil, previous: nil) }
        } else if let clear = walk.clearSince {
            gaps.append((t - clear).nanoseconds)
        } else if let previous = walk.previousEdit, let last = walk.lastEditTime, !walk.hiddenSinceEdit {
            let context = TypingContext.of(event.kind, after: previous, text: walk.text)
            record = append(context, (t - last).nanoseconds, pair: context == .withinWord ? KeyPair.of(event.kind, text: walk.text) : nil,
                            previous: walk.lastRecord)
        }
        walk.lastRecord = record
        let startsCorrection = TypingContext.isCorrection(event.kind) && !(walk.previousEdit.map(TypingContext.isCorrection) ?? false)
        switch event.kind {
        case .key(let inserted, _, let point):
            if inserted.count == 1, let letter = inserted.first, letter.isLetter {
                lettersTyped += 1
                if let point, let key = KeyboardLayout.qwerty.key(for: Character(letter.lowercased())) {
                    let dx = point.x - key.center.x, dy = point.y - key.center.y
                    // A touch far off its key is a slip or another layout: leave it out.
                    if dx * dx + dy * dy < 33 * 33 {
                        touchSquares += dx * dx + dy * dy
                        touchCount += 1
                    }
                }
            }
        case .backspace:
            if walk.text.characterBeforeCursor?.isLetter == true { lettersDeleted += 1 }
            if startsCorrection {
                if walk.text.characterBeforeCursor?.isWhitespace == true { afterWordCorrections += 1 } else { inWordCorrections += 1 }
            }
        case .cursorMove(let offset):
            if startsCorrection && offset < 0 {
                afterWordCorrections += 1
                cursorFixes += 1
            }
        case .suggestionPicked(let word):
            picks += 1
            shortestPick = min(shortestPick, word.count)
        default:
            break
        }
        walk.previousEdit = event.kind
        walk.lastEditTime = t
        walk.showSince = nil
        walk.clearSince = nil
        walk.hiddenSinceEdit = false
    }

    /// Files an interval under `context`; returns its record.
    private mutating func append(_ context: TypistProfile.Context, _ nanos: Int64, pair: KeyPair?, previous: Int?) -> Int {
        samples[TypistProfile.Context.allCases.firstIndex(of: context)!].append(nanos)
        records.append(IntervalRecord(context: context, nanos: nanos, pair: pair, previous: previous))
        return records.count - 1
    }

    /// Ends the current trace (its statistics and messages join the others); `fit` does so
    /// too.
    public mutating func finish() { finishTrace() }

    private mutating func finishTrace() {
        guard let walk = current else { return }
        current = nil
        statistics.append(walk.statistics.finished())
        var texts: [String] = []
        if !walk.fieldIntended.isEmpty {
            texts = walk.fieldIntended
        } else if let intended = walk.headerIntended, !intended.isEmpty {
            texts = [intended]
        } else if !walk.text.text.isEmpty {
            texts = [walk.text.text]
        }
        messages += texts
        for (index, text) in texts.enumerated() {
            let dictated = walk.dictations.filter { walk.fieldIntended.isEmpty || $0.field == index }.map(\.segment)
            scripts.append(Self.script(text, dictated: dictated))
        }
    }

    /// A recorded dictation as a script's: the clip, or inline speech, lasting from the start
    /// tap to the stop tap less the 0.65 s the typist takes on average to tap stop.
    private static func dictation(_ audio: DictationAudio, lasting duration: SimDuration) -> SynthScript.Segment {
        let length = max(0, duration.nanoseconds - 650_000_000)
        switch audio {
        case let .wavFile(path, transcript): return .dictation(audio: path, transcript: transcript ?? "", lengthNanos: length)
        case let .inline(_, _, transcript): return .dictation(audio: "", transcript: transcript ?? "", lengthNanos: length)
        }
    }

    /// `text` as a script: each of `dictated`'s transcripts, found in order, a dictation; the
    /// text around them typed. A transcript not found is left out (its words are typed).
    static func script(_ text: String, dictated: [SynthScript.Segment]) -> SynthScript {
        var segments: [SynthScript.Segment] = []
        var rest = Substring(text)
        for segment in dictated {
            guard case let .dictation(_, transcript, _) = segment, !transcript.isEmpty,
                  let range = rest.range(of: transcript) else { continue }
            if range.lowerBound > rest.startIndex { segments.append(.typed(String(rest[..<range.lowerBound]))) }
            segments.append(segment)
            rest = rest[range.upperBound...]
        }
        if !rest.isEmpty { segments.append(.typed(String(rest))) }
        return SynthScript(segments: segments)
    }

    /// The samples of `context`.
    public func samples(_ context: TypistProfile.Context) -> [Int64] {
        samples[TypistProfile.Context.allCases.firstIndex(of: context)!]
    }
}

// MARK: - The fit

/// A fitted profile and what the fit could not measure.
public struct TypistFit: Sendable {
    /// The profile.
    public var profile: TypistProfile
    /// Parts that kept a preset's values, as sentences.
    public var notes: [String]
}

extension TypistFitter {
    /// The profile these traces measure, named `name`.
    public mutating func fit(name: String) -> TypistFit { fit(name: name, rhythm: true) }

    /// The profile, with or without the rhythm model (without: the fit as it was before the
    /// rhythm existed, for comparisons).
    mutating func fit(name: String, rhythm fitsRhythm: Bool) -> TypistFit {
        finishTrace()
        let base = TypistProfile.copying
        var notes: [String] = []
        let withinWordMs = samples(.withinWord).map { Double($0) / 1e6 }
        let threshold = withinWordMs.isEmpty ? Self.defaultThresholdMs
            : max(Self.defaultThresholdMs, (4 * Self.median(withinWordMs) / 10).rounded() * 10)

        var contexts = base.contexts
        var fitted = [Bool](repeating: false, count: contexts.count)
        for (index, context) in TypistProfile.Context.allCases.enumerated() {
            let values = samples[index].map { Double($0) / 1e6 }
            let typing = context == .messageStart ? values : values.filter { $0 <= threshold }
            guard typing.count >= Self.minimumSamples else { continue }
            let pauses = context == .messageStart ? 0 : values.count - typing.count
            contexts[index] = .init(interval: Self.lognormal(typing), pauseProbability: Double(pauses) / Double(values.count))
            fitted[index] = true
        }
        let scale = fitted[0] ? contexts[0].interval.medianMs / base.contexts[0].interval.medianMs : 1
        // A context with few intervals keeps the preset's interval, but pauses as often as its
        // own intervals did (or, without any, as often as all the others): a preset's pause
        // share must not add pauses a recording never had.
        let typingContexts = TypistProfile.Context.allCases.indices.filter { TypistProfile.Context.allCases[$0] != .messageStart }
        let all = typingContexts.flatMap { samples[$0] }
        let pooledShare = all.isEmpty ? 0 : Double(all.filter { Double($0) / 1e6 > threshold }.count) / Double(all.count)
        for (index, context) in TypistProfile.Context.allCases.enumerated() where !fitted[index] {
            contexts[index].interval.medianMs *= scale
            let own = samples[index]
            if context != .messageStart {
                contexts[index].pauseProbability = own.isEmpty ? pooledShare
                    : Double(own.filter { Double($0) / 1e6 > threshold }.count) / Double(own.count)
            }
            notes.append("\(context.rawValue): fewer than \(Self.minimumSamples) intervals under the pause threshold (\(samples[index].count) in all): the copying preset's timing, scaled by \(NumberText.fixed(scale, 2))")
        }
        let rhythm = fitsRhythm ? fitRhythm(&contexts, fitted: fitted, thresholdMs: threshold) : nil

        var pauses = base.pauses
        pauses.thresholdMs = threshold
        let excess = all.map { Double($0) / 1e6 - threshold }.filter { $0 > 0 }
        if excess.count >= 10 {
            let logs = excess.map { log($0) }
            let (mean, sd) = Self.moments(logs)
            pauses.excessMedianMs = exp(mean)
            // A logistic's standard deviation is s·π/√3; the log-logistic's shape is 1/s.
            pauses.shape = min(20, max(0.5, Double.pi / (3.0.squareRoot() * max(sd, 1e-6))))
            // No pause longer than the longest recorded: the fitted tail is heavy, and a
            // recording without long pauses must not gain them.
            pauses.maxMs = max(threshold + 1, (excess.max()! + threshold).rounded(.up))
        } else {
            let longest = all.max().map { Double($0) / 1e6 } ?? 0
            pauses.maxMs = max(threshold + 1, longest.rounded(.up))
            if excess.isEmpty {
                notes.append("pauses: none over \(Int(threshold)) ms: the copying preset's pause lengths")
            } else {
                // Too few for a shape, enough for a scale: a short recording that paused long
                // must not resynthesise with the copying preset's short pauses.
                pauses.excessMedianMs = exp(excess.map { log($0) }.reduce(0, +) / Double(excess.count))
                notes.append("pauses: \(excess.count) pause(s) over \(Int(threshold)) ms, fewer than 10: their median, with the copying preset's shape")
            }
        }

        let errorsLeft = statistics.reduce(0) { $0 + $1.characterErrorsLeft }
        let compared = statistics.reduce(0) { $0 + $1.charactersCompared }
        if compared == 0 { notes.append("errors: no intended text to compare with: no slips left in the text") }
        let slips = inWordCorrections + afterWordCorrections + errorsLeft
        let letters = max(1, lettersTyped - lettersDeleted)
        let errors: TypistProfile.Errors = slips == 0
            ? .init(slipRate: 0, noticedInWordShare: base.errors.noticedInWordShare,
                    noticedAfterWordShare: base.errors.noticedAfterWordShare, cursorFixShare: base.errors.cursorFixShare)
            : .init(slipRate: min(0.5, Double(slips) / Double(letters)),
                    noticedInWordShare: Double(inWordCorrections) / Double(slips),
                    noticedAfterWordShare: Double(afterWordCorrections) / Double(slips),
                    cursorFixShare: afterWordCorrections == 0 ? 0 : Double(cursorFixes) / Double(afterWordCorrections))

        var messageModel = TypistProfile.chat.messages
        // A message of several lines (an email) is one field with returns between its lines;
        // messages of one line each are what a typist that sends a message per line types.
        messageModel.perLine = sendsMessages && !messages.contains { $0.contains("\n") }
        if sendDelays.count >= 3 { messageModel.sendDelay = Self.lognormal(sendDelays.map { Double($0) / 1e6 }) }
        if gaps.count >= 3 { messageModel.gap = Self.lognormal(gaps.map { Double($0) / 1e6 }) }
        messageModel.hideProbability = boundaries == 0 ? 0 : Double(hiddenBoundaries) / Double(boundaries)
        if sendsMessages && (sendDelays.count < 3 || gaps.count < 3) {
            notes.append("messages: \(sendDelays.count) send delay(s) and \(gaps.count) gap(s), fewer than 3: the chat preset's for the missing ones")
        }

        let minimumLength = picks > 0 ? max(2, shortestPick) : base.suggestions.minimumLength
        let eligible = messages.reduce(0) { $0 + HumanTypist.suggestibleWords(in: $1, minimumLength: minimumLength) }
        let suggestions = TypistProfile.Suggestions(
            pickRate: eligible == 0 ? 0 : min(1, Double(picks) / Double(eligible)), minimumLength: minimumLength)
        let spread = touchCount < 20 ? base.touchSpreadPoints : min(33, (touchSquares / Double(touchCount) / 2).squareRoot())

        let profile = TypistProfile(name: name, source: "keysim trace fit", contexts: contexts, pauses: pauses, errors: errors,
                                    messages: messageModel, suggestions: suggestions,
                                    touchSpreadPoints: (spread * 10).rounded() / 10, language: language ?? "en", rhythm: rhythm)
        return TypistFit(profile: profile, notes: notes)
    }

    /// The lognormal with the moments of the values' logarithms.
    static func lognormal(_ valuesMs: [Double]) -> TypistProfile.Interval {
        let (mean, sd) = moments(valuesMs.map { log(max($0, 1e-3)) })
        return .init(medianMs: exp(mean), sigma: sd)
    }

    /// Mean and (population) standard deviation.
    static func moments(_ values: [Double]) -> (mean: Double, sd: Double) {
        guard !values.isEmpty else { return (0, 0) }
        let mean = values.reduce(0, +) / Double(values.count)
        let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count)
        return (mean, variance.squareRoot())
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }
}
