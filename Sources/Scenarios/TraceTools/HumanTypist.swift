#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Sim

/// A typist that types as people do, from a `TypistProfile`: intervals by context, pauses
/// with a heavy tail, slips noticed within the word, after it or never, picked suggestions,
/// and messages sent one after another with the field cleared and, now and then, the
/// keyboard hidden in between. The same profile, script and seed give the same trace.
///
/// The model is documented under "Typist profiles" in `docs/trace-format.md`. Its draws come
/// from separate named streams (typing intervals, pauses, slips, suggestions, messages,
/// touches, holds), so that changing one part of a profile leaves the others' draws alone. A
/// profile with a rhythm or hesitations draws its typing intervals from a stream of their own
/// ("rhythm"), so a profile without them types exactly as before they existed.
public struct HumanTypist: Sendable {
    /// The typist's parameters.
    public let profile: TypistProfile

    /// Creates a typist.
    public init(profile: TypistProfile) { self.profile = profile }

    /// The messages the typist types from `script`: each non-empty line a message of its own
    /// when the profile types a message per line, else the whole script as one.
    public func messages(of script: SynthScript) -> [SynthScript] {
        guard profile.messages.perLine else { return [script] }
        var messages: [SynthScript] = []
        var current: [SynthScript.Segment] = []
        func close() {
            let message = SynthScript(segments: current)
            if !message.intendedText.allSatisfy(\.isWhitespace) { messages.append(message) }
            current = []
        }
        for segment in script.segments {
            switch segment {
            case .typed(let text):
                for (index, line) in Self.lines(of: text).enumerated() {
                    if index > 0 { close() }
                    if !line.isEmpty { current.append(.typed(String(line))) }
                }
            case .dictation:
                current.append(segment)
            }
        }
        close()
        return messages
    }

    /// The lines of `text` between its "\n" characters, as `text.split(separator: "\n",
    /// omittingEmptySubsequences: false)` gives them, found in its UTF-8 without walking its
    /// clusters: a line feed is a cluster of its own unless a carriage return comes just
    /// before it (Unicode's rules GB3–GB5).
    static func lines(of text: String) -> [Substring] {
        var lines: [Substring] = []
        let utf8 = text.utf8
        var start = utf8.startIndex
        var index = utf8.startIndex
        var previous: UInt8 = 0
        while index < utf8.endIndex {
            let byte = utf8[index]
            let next = utf8.index(after: index)
            if byte == 0x0A && previous != 0x0D {
                lines.append(text[start..<index])
                start = next
            }
            previous = byte
            index = next
        }
        lines.append(text[start...])
        return lines
    }

    /// The header's intended text for `script`: its messages, one per line.
    public func intendedText(of script: SynthScript) -> String {
        messages(of: script).map(\.intendedText).joined(separator: "\n")
    }

    /// The trace of `script`, in time order.
    public func synthesize(_ script: SynthScript, seed: UInt64) -> [TraceEvent] {
        var session = Session(profile: profile, seed: seed)
        let messages = messages(of: script)
        session.emit(.keyboardShown)
        for (index, message) in messages.enumerated() {
            if index == 0 {
                session.emit(.field(FieldChange(.opened, intendedText: message.intendedText)))
                session.startAfterShow()
            }
            for segment in message.segments { session.type(segment) }
            session.finishMessage()
            let next = index + 1 < messages.count ? messages[index + 1] : nil
            session.send(next: next?.intendedText)
        }
        return session.events
    }
}

// MARK: - The session

/// The state of one synthesis: the clock, the field's text, the last edit and the streams.
private struct Session {
    let profile: TypistProfile
    var events: [TraceEvent] = []
    var time = SimTime.zero
    var text = ReplayedText()
    /// The last edit of the message, or `nil` before its first.
    var previousEdit: TraceEvent.Kind?
    /// The interval before the next edit when it is not drawn by context (after a show or a
    /// message gap).
    var pendingInterval: SimDuration?
    /// A slip the typist will notice after the word: the letter meant and what was typed since.
    var pendingSlip: (correct: TypedCharacter, typedAfter: [TypedCharacter])?
    var languages: TypingLanguages

    var timing: RandomStream
    var pauses: RandomStream
    var slips: RandomStream
    var suggestions: RandomStream
    var messageDraws: RandomStream
    var touches: RandomStream
    var holds: RandomStream
    /// The rhythm model's draws, and its latent chain's last value (`nil` before the first).
    var rhythmDraws: RandomStream
    var latent: Double?

    /// What the profile answers on every edit, asked once: each context's timing and typing
    /// lognormal (in the order of `Context.allCases`), whether the rhythm model draws and
    /// whether its multipliers do anything.
    let timings: [TypistProfile.ContextTiming]
    let typingDistributions: [Distribution]
    let drawsWithRhythm: Bool
    let rhythmHasMultipliers: Bool

    init(profile: TypistProfile, seed: UInt64) {
        self.profile = profile
        let root = RandomStream(seed: seed, replication: 0, name: "trace.typist")
        timing = root.derived("timing")
        pauses = root.derived("pauses")
        slips = root.derived("slips")
        suggestions = root.derived("suggestions")
        messageDraws = root.derived("messages")
        touches = root.derived("touches")
        holds = root.derived("holds")
        rhythmDraws = root.derived("rhythm")
        languages = TypingLanguages(start: profile.language)
        timings = TypistProfile.Context.allCases.map { profile[$0] }
        typingDistributions = timings.map(\.interval).map {
            Distribution.lognormal(mu: log($0.medianMs), sigma: max($0.sigma, 1e-9))
        }
        drawsWithRhythm = profile.drawsWithRhythm
        rhythmHasMultipliers = profile.rhythm?.hasMultipliers == true
    }

    var letterLayout: KeyboardLayout { languages.letterLayout }

    // MARK: Events

    mutating func emit(_ kind: TraceEvent.Kind) {
        events.append(TraceEvent(time: time, kind: kind))
        text.apply(kind)
    }

    /// One edit, after its interval.
    mutating func edit(_ kind: TraceEvent.Kind, key: KeyboardLayout.Key? = nil, aim: KeyboardLayout.Key? = nil) {
        if let pending = pendingInterval {
            time = time + pending
            pendingInterval = nil
        } else {
            let context = TypingContext.of(kind, after: previousEdit ?? .keyboardShown, text: text)
            let pair = context == .withinWord && rhythmHasMultipliers ? KeyPair.of(kind, text: text) : nil
            time = time + draw(context, pair: pair)
        }
        var recorded = kind
        switch kind {
        case .key(let inserted, _, _):
            recorded = .key(text: inserted, touchUp: time + hold(),
                            point: key.map { TypistModel.touch($0, aim: aim, spread: profile.touchSpreadPoints, &touches) })
        case .backspace:
            recorded = .backspace(touchUp: time + hold(),
                                  point: TypistModel.touch(letterLayout.backspace, aim: nil, spread: profile.touchSpreadPoints, &touches))
        default:
            break
        }
        emit(recorded)
        previousEdit = recorded
    }

    mutating func hold() -> SimDuration {
        TypistModel.duration(milliseconds: Self.holdDistribution.sample(&holds))
    }

    /// A touch's hold: a lognormal 85 ms (σ = 0.25), as `TypistModel`'s.
    static let holdDistribution = Distribution.lognormal(mu: log(85), sigma: 0.25)

    // MARK: Intervals

    /// The interval before an edit in `context`: a pause with the context's probability, else
    /// the typing interval (through the rhythm model when the profile has one; `pair`, within
    /// a word, picks its multiplier).
    mutating func draw(_ context: TypistProfile.Context, pair: KeyPair? = nil) -> SimDuration {
        let index = context.index
        let timing = timings[index]
        if timing.pauseProbability > 0 && pauses.nextDouble() < timing.pauseProbability { return pause() }
        if drawsWithRhythm && context != .messageStart { return rhythmTyping(timing, pair: pair) }
        return typing(typingDistributions[index])
    }

    /// A typing interval of the rhythm model: the latent chain steps (an AR(1) of standard
    /// normals with the rhythm's serial correlation) and its value's normal probability is
    /// the quantile drawn from the context's mixture, cut at the pause threshold. A pause
    /// leaves the chain where it was.
    mutating func rhythmTyping(_ timing: TypistProfile.ContextTiming, pair: KeyPair?) -> SimDuration {
        let rho = profile.rhythm?.serialCorrelation ?? 0
        let innovation = StandardNormal.sample(&rhythmDraws)
        let z = latent.map { rho * $0 + (1 - rho * rho).squareRoot() * innovation } ?? innovation
        latent = z
        let multiplier = pair.map { profile.rhythm?.multiplier(of: $0) ?? 1 } ?? 1
        let mixture = TypingMixture(timing, multiplier: multiplier, thresholdMs: profile.pauses.thresholdMs)
        return TypistModel.duration(milliseconds: mixture.quantile(StandardNormal.cdf(z)))
    }

    /// A draw of a context's lognormal typing interval, drawn again while it is over the
    /// pause threshold.
    mutating func typing(_ distribution: Distribution) -> SimDuration {
        let threshold = profile.pauses.thresholdMs
        for _ in 0..<64 {
            let ms = distribution.sample(&timing)
            if ms <= threshold { return TypistModel.duration(milliseconds: ms) }
        }
        return TypistModel.duration(milliseconds: threshold)
    }

    /// A pause: the threshold plus a log-logistic excess, at most `maxMs`.
    mutating func pause() -> SimDuration {
        let model = profile.pauses
        let u = pauses.nextOpenUnit()
        let excess = model.excessMedianMs * pow(u / (1 - u), 1 / model.shape)
        return TypistModel.duration(milliseconds: min(model.thresholdMs + excess, model.maxMs))
    }

    /// A lognormal message interval (no threshold).
    mutating func messageInterval(_ interval: TypistProfile.Interval) -> SimDuration {
        TypistModel.duration(milliseconds: Distribution.lognormal(mu: log(interval.medianMs), sigma: max(interval.sigma, 1e-9))
            .sample(&messageDraws))
    }

    // MARK: Messages

    /// The first edit after a keyboard show comes after a `messageStart` interval.
    mutating func startAfterShow() {
        pendingInterval = draw(.messageStart)
        previousEdit = nil
    }

    /// A slip still waiting at the end of the message is noticed before sending.
    mutating func finishMessage() {
        if pendingSlip != nil { fixSlipAfterWord() }
    }

    /// Sends the message (the field is cleared, with the next message's intended text), then
    /// either hides the keyboard and shows it again after the gap, or waits the gap with the
    /// keyboard up. After the last message the keyboard hides.
    mutating func send(next: String?) {
        time = time + messageInterval(profile.messages.sendDelay)
        emit(.field(FieldChange(.cleared, intendedText: next)))
        previousEdit = nil
        let cleared = time
        guard next != nil else {
            time = time + messageInterval(profile.messages.sendDelay)
            emit(.keyboardHidden)
            return
        }
        let hides = messageDraws.bernoulli(profile.messages.hideProbability)
        let gap = messageInterval(profile.messages.gap)
        if hides {
            let hideDelay = messageInterval(profile.messages.sendDelay)
            time = cleared + hideDelay
            emit(.keyboardHidden)
            time = max(cleared + gap, time + SimDuration(nanoseconds: 1_000_000))
            emit(.keyboardShown)
            startAfterShow()
        } else {
            pendingInterval = gap
        }
    }

    // MARK: Typing

    mutating func type(_ segment: SynthScript.Segment) {
        switch segment {
        case .typed(let message):
            let characters = TypedCharacter.characters(of: message)
            var index = 0
            while index < characters.count { index = type(characters, at: index) }
        case let .dictation(audio, transcript, lengthNanos):
            if pendingSlip != nil { fixSlipAfterWord() }
            time = time + (pendingInterval ?? draw(.sentenceStart))
            pendingInterval = nil
            for event in TypistModel.dictation(audio: audio, transcript: transcript, lengthNanos: lengthNanos, at: time,
                                               &messageDraws) {
                time = event.time
                emit(event.kind)
            }
            previousEdit = .dictationStop
        }
    }

    /// Types the character at `index` (or a whole word through the suggestion bar); returns
    /// the index of the next character to type.
    mutating func type(_ characters: [TypedCharacter], at index: Int) -> Int {
        let c = characters[index]
        if let tag = languages.switchBefore(c) {
            // The globe key, timed as a tap after a punctuation mark.
            time = time + draw(.afterPunctuation)
            emit(.languageSwitch(language: tag))
        }
        if pendingSlip == nil, let length = suggestibleWordLength(characters, at: index),
           suggestions.bernoulli(profile.suggestions.pickRate) {
            let prefix = max(2, length / 2)
            for letter in characters[index..<(index + prefix)] { typeKey(letter) }
            edit(.suggestionPicked(text: String(characters[index..<(index + length)].map(\.character))))
            return index + length
        }
        let found = c.key(on: letterLayout)
        if pendingSlip != nil {
            typeKey(c, found: found)
            pendingSlip!.typedAfter.append(c)
            if c.properties.isWhitespace { fixSlipAfterWord() }
            return index + 1
        }
        let errors = profile.errors
        guard found.letterLayer, errors.slipRate > 0, slips.bernoulli(errors.slipRate),
              let intended = found.key,
              let wrong = Planner.pickNeighbour(of: intended, on: letterLayout, &slips) else {
            typeKey(c, found: found)
            return index + 1
        }
        let wrongText = c.properties.isUppercase ? wrong.label.uppercased() : wrong.label
        edit(.key(text: wrongText, touchUp: nil, point: nil), key: wrong, aim: intended)
        let fate = slips.nextDouble()
        if fate < errors.noticedInWordShare {
            // Up to two more letters of the word, then back over them and the slip.
            let wanted = [0, 0, 0, 0, 0, 1, 1, 1, 2, 2][slips.nextInt(below: 10)]
            var next = index + 1
            while next - index - 1 < wanted, next < characters.count, characters[next].properties.isLetter,
                  characters[next].key(on: letterLayout).letterLayer {
                typeKey(characters[next])
                next += 1
            }
            for _ in index..<next { edit(.backspace(touchUp: nil, point: nil)) }
            typeKey(c, found: found)
        } else if fate < errors.noticedInWordShare + errors.noticedAfterWordShare {
            pendingSlip = (c, [])
        }
        return index + 1
    }

    /// Fixes the pending slip: moves the cursor back to it, or backspaces over everything
    /// typed after it, and types the letter meant.
    mutating func fixSlipAfterWord() {
        guard let slip = pendingSlip else { return }
        pendingSlip = nil
        let after = slip.typedAfter.count
        if after > 0 && slips.bernoulli(profile.errors.cursorFixShare) {
            edit(.cursorMove(offset: -after))
            edit(.backspace(touchUp: nil, point: nil))
            typeKey(slip.correct)
            edit(.cursorMove(offset: after))
        } else {
            for _ in 0...after { edit(.backspace(touchUp: nil, point: nil)) }
            typeKey(slip.correct)
            for c in slip.typedAfter { typeKey(c) }
        }
    }

    /// Types `c` on its key, without a slip; `found` is its key on the current layout when
    /// already looked up.
    mutating func typeKey(_ c: TypedCharacter, found: TypedCharacter.KeyLookup? = nil) {
        let key = (found ?? c.key(on: letterLayout)).key
        edit(.key(text: String(c.character), touchUp: nil, point: nil), key: key)
    }

    func suggestibleWordLength(_ characters: [TypedCharacter], at index: Int) -> Int? {
        guard profile.suggestions.pickRate > 0 else { return nil }
        return HumanTypist.suggestibleWordLength(characters, at: index, minimumLength: profile.suggestions.minimumLength)
    }
}

extension HumanTypist {
    /// The length of the word starting at `index` when a typist may complete it from the
    /// bar: letters only, at least `minimumLength` of them, after white space or at the
    /// start, and followed by no letter or digit.
    static func suggestibleWordLength(_ characters: [TypedCharacter], at index: Int, minimumLength: Int) -> Int? {
        guard index == 0 || characters[index - 1].properties.isWhitespace else { return nil }
        var end = index
        while end < characters.count, characters[end].properties.isLetter { end += 1 }
        let length = end - index
        guard length >= minimumLength else { return nil }
        if end < characters.count, characters[end].properties.isNumber { return nil }
        return length
    }

    /// The words of `text` a typist may complete from the bar.
    static func suggestibleWords(in text: String, minimumLength: Int) -> Int {
        let characters = TypedCharacter.characters(of: text)
        var count = 0
        for index in characters.indices where suggestibleWordLength(characters, at: index, minimumLength: minimumLength) != nil {
            count += 1
        }
        return count
    }

    /// `profile` with its typing intervals scaled so that the trace of `script` types at
    /// `wordsPerMinute` as `trace stats` measures it (pauses over 5 s left out), within 1 %
    /// or after six rounds, whichever comes first.
    public static func profile(_ profile: TypistProfile, scaledToWordsPerMinute wordsPerMinute: Double,
                               script: SynthScript, seed: UInt64) -> TypistProfile {
        var scaled = profile
        for _ in 0..<6 {
            let typist = HumanTypist(profile: scaled)
            var statistics = TraceStatistics(header: TraceHeader())
            for event in typist.synthesize(script, seed: seed) { statistics.add(event) }
            guard let measured = statistics.wordsPerMinute, measured > 0 else { return scaled }
            let ratio = measured / wordsPerMinute
            if abs(ratio - 1) < 0.01 { break }
            scaled = scaled.scaled(by: ratio)
        }
        return scaled
    }
}
