#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Sim

/// The state of one `HumanTypist` synthesis: the clock, the field's text, the last edit and
/// the streams; its typing is in `HumanTypistSession+Typing.swift`.
struct HumanTypistSession {
    let profile: TypistProfile
    var events: [TraceEvent] = []
    var time = SimTime.zero
    var text = ReplayedText()
    /// Whether the last edit of the message was a correction (a backspace or cursor move):
    /// all `TypingContext` asks of it. False before the message's first edit.
    var previousCorrects = false
    /// The interval before the next edit when it is not drawn by context (after a show or a
    /// message gap).
    var pendingInterval: Interval?
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
    let typingSamplers: [Distribution.Lognormal]
    let drawsWithRhythm: Bool
    let rhythmHasMultipliers: Bool
    /// How the clock moved and which typing intervals were drawn, when the session records
    /// them (`nil`: it does not), so that the trace can be timed again for a typist who types
    /// faster or slower (`HumanTypistSession+Retiming.swift`).
    var timeline: TypingTimeline?

    init(profile: TypistProfile, seed: UInt64, recordsTimeline: Bool = false) {
        self.profile = profile
        timeline = recordsTimeline ? TypingTimeline() : nil
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
        typingSamplers = Self.typingSamplers(of: profile)
        drawsWithRhythm = profile.drawsWithRhythm
        rhythmHasMultipliers = profile.rhythm?.hasMultipliers == true
    }

    var letterLayout: KeyboardLayout { languages.letterLayout }

    /// Each context's lognormal typing interval, in the order of `Context.allCases`.
    static func typingSamplers(of profile: TypistProfile) -> [Distribution.Lognormal] {
        profile.contexts.map { Distribution.Lognormal(mu: log($0.interval.medianMs), sigma: max($0.interval.sigma, 1e-9)) }
    }

    // MARK: Events

    mutating func emit(_ kind: TraceEvent.Kind) {
        append(TraceEvent(time: time, kind: kind))
        text.apply(kind)
    }

    /// Adds `event` to the trace, noting in the timeline how far the clock had moved.
    mutating func append(_ event: consuming TraceEvent) {
        events.append(event)
        if let steps = timeline?.steps.count { timeline!.eventSteps.append(Int32(steps)) }
    }

    /// Moves the clock past `interval`, noting the step in the timeline.
    mutating func wait(_ interval: Interval) {
        time = time + interval.duration
        timeline?.steps.append(TypingTimeline.Step(nanos: interval.duration.nanoseconds, draw: interval.draw))
    }

    /// Moves the clock past the interval before an edit: the pending one, or one drawn for
    /// the edit's context. `key` is the edit when it is a key, asked for its letter pair only
    /// when the rhythm's multipliers need it.
    private mutating func advance(correction: Bool, suggestion: Bool = false, key: @autoclosure () -> TraceEvent.Kind) {
        if let pending = pendingInterval {
            wait(pending)
            pendingInterval = nil
            return
        }
        let context = TypingContext.of(correction: correction, suggestion: suggestion, afterCorrection: previousCorrects, text: text)
        let pair = context == .withinWord && rhythmHasMultipliers ? KeyPair.of(key(), text: text) : nil
        wait(draw(context, pair: pair))
    }

    /// A key typing `inserted` after its interval, touched on the key centred on `center`
    /// (`nil`: not on the keyboard) or, for a slip, near its edge towards the key centred on
    /// `aim`.
    /// `ascii` is the key's text when it is one ASCII byte (the text keeps it as a byte).
    mutating func key(_ inserted: String, ascii: UInt8? = nil, at center: TouchPoint?, aim: TouchPoint? = nil) {
        advance(correction: false, key: .key(text: inserted, touchUp: nil, point: nil))
        let touchUp = time + hold()
        let point = center.map { TypistModel.touch(center: $0, aim: aim, spread: profile.touchSpreadPoints, &touches) }
        append(TraceEvent(time: time, kind: .key(text: inserted, touchUp: touchUp, point: point)))
        if let ascii { text.insert(ascii: ascii, inserted) } else { text.insert(inserted) }
        previousCorrects = false
    }

    /// A backspace after its interval, touched on the letter layer's backspace key.
    mutating func backspace() {
        advance(correction: true, key: .backspace(touchUp: nil, point: nil))
        let touchUp = time + hold()
        let backspaceKey = languages.currentIsCyrillic ? KeyboardLayout.russian.backspace : KeyboardLayout.qwerty.backspace
        let point = TypistModel.touch(backspaceKey, aim: nil, spread: profile.touchSpreadPoints, &touches)
        append(TraceEvent(time: time, kind: .backspace(touchUp: touchUp, point: point)))
        text.deleteBackward()
        previousCorrects = true
    }

    /// A cursor move by `offset` characters after its interval.
    mutating func moveCursor(by offset: Int) {
        advance(correction: true, key: .cursorMove(offset: offset))
        emit(.cursorMove(offset: offset))
        previousCorrects = true
    }

    /// The suggestion `word` picked from the bar after its interval.
    mutating func pickSuggestion(_ word: String) {
        advance(correction: false, suggestion: true, key: .suggestionPicked(text: word))
        emit(.suggestionPicked(text: word))
        previousCorrects = false
    }

    mutating func hold() -> SimDuration {
        TypistModel.duration(milliseconds: Self.holdDistribution.sample(&holds))
    }

    /// A touch's hold: a lognormal 85 ms (σ = 0.25), as `TypistModel`'s.
    static let holdDistribution = Distribution.Lognormal(mu: log(85), sigma: 0.25)

    // MARK: Intervals

    /// An interval the clock moves by, and the typing draw it is (an index into the
    /// timeline's draws) or -1 when a typist of another speed would wait just as long.
    struct Interval {
        var duration: SimDuration
        var draw: Int32

        /// An interval that does not depend on the typist's speed.
        static func fixed(_ duration: SimDuration) -> Interval { Interval(duration: duration, draw: -1) }
    }

    /// The interval before an edit in `context`: a pause with the context's probability, else
    /// the typing interval (through the rhythm model when the profile has one; `pair`, within
    /// a word, picks its multiplier). Typing intervals are noted in the timeline.
    mutating func draw(_ context: TypistProfile.Context, pair: KeyPair? = nil) -> Interval {
        let index = context.index
        let timing = timings[index]
        if timing.pauseProbability > 0 && pauses.nextDouble() < timing.pauseProbability { return .fixed(pause()) }
        let drawn: TypingTimeline.Draw
        let duration: SimDuration
        if drawsWithRhythm && context != .messageStart {
            let multiplier = pair.map { profile.rhythm?.multiplier(of: $0) ?? 1 } ?? 1
            drawn = .rhythm(context: Int32(index), multiplier: multiplier)
            duration = rhythmTyping(timing, multiplier: multiplier)
        } else {
            drawn = .typing(context: Int32(index))
            duration = typing(typingSamplers[index])
        }
        guard timeline != nil else { return .fixed(duration) }
        timeline!.draws.append(drawn)
        return Interval(duration: duration, draw: Int32(timeline!.draws.count - 1))
    }

    /// A typing interval of the rhythm model: the latent chain steps (an AR(1) of standard
    /// normals with the rhythm's serial correlation) and its value's normal probability is
    /// the quantile drawn from the context's mixture (its median times the key pair's
    /// `multiplier`), cut at the pause threshold. A pause leaves the chain where it was.
    mutating func rhythmTyping(_ timing: TypistProfile.ContextTiming, multiplier: Double) -> SimDuration {
        let innovation = StandardNormal.sample(&rhythmDraws)
        if timeline != nil { timeline!.innovations.append(innovation) }
        return Self.rhythmInterval(timing, multiplier: multiplier, innovation: innovation, latent: &latent,
                                   rho: profile.rhythm?.serialCorrelation ?? 0, thresholdMs: profile.pauses.thresholdMs)
    }

    /// `rhythmTyping(_:multiplier:)` with the rhythm stream's draw `innovation`, the latent
    /// chain's last value `latent` (stepped) and the rhythm's serial correlation `rho`.
    static func rhythmInterval(_ timing: TypistProfile.ContextTiming, multiplier: Double, innovation: Double,
                               latent: inout Double?, rho: Double, thresholdMs: Double) -> SimDuration {
        let z = latent.map { rho * $0 + (1 - rho * rho).squareRoot() * innovation } ?? innovation
        latent = z
        let mixture = TypingMixture(timing, multiplier: multiplier, thresholdMs: thresholdMs)
        return TypistModel.duration(milliseconds: mixture.quantile(StandardNormal.cdf(z)))
    }

    /// A draw of a context's lognormal typing interval, drawn again while it is over the
    /// pause threshold; the timeline keeps each draw's standard normal.
    mutating func typing(_ sampler: Distribution.Lognormal) -> SimDuration {
        let records = timeline != nil
        return Self.typingInterval(sampler, thresholdMs: profile.pauses.thresholdMs) {
            let z = Distribution.Lognormal.standardNormal(&timing)
            if records { timeline!.normals.append(z) }
            return z
        }
    }

    /// A typing interval of `sampler` cut at `thresholdMs`: drawn again (`normal()` gives
    /// each draw's standard normal) while it is over the threshold, the threshold itself
    /// after 64 draws over it.
    @inline(__always)
    static func typingInterval(_ sampler: Distribution.Lognormal, thresholdMs: Double, normal: () -> Double) -> SimDuration {
        for _ in 0..<64 {
            let ms = sampler.value(standardNormal: normal())
            if ms <= thresholdMs { return TypistModel.duration(milliseconds: ms) }
        }
        return TypistModel.duration(milliseconds: thresholdMs)
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
        previousCorrects = false
    }

    /// A slip still waiting at the end of the message is noticed before sending.
    mutating func finishMessage() {
        if pendingSlip != nil { fixSlipAfterWord() }
    }

    /// Sends the message (the field is cleared, with the next message's intended text), then
    /// either hides the keyboard and shows it again after the gap, or waits the gap with the
    /// keyboard up. After the last message the keyboard hides.
    /// These intervals do not depend on the typist's speed: the clock moves by the same
    /// steps for a faster or slower typist.
    mutating func send(next: String?) {
        wait(.fixed(messageInterval(profile.messages.sendDelay)))
        emit(.field(FieldChange(.cleared, intendedText: next)))
        previousCorrects = false
        let cleared = time
        guard next != nil else {
            wait(.fixed(messageInterval(profile.messages.sendDelay)))
            emit(.keyboardHidden)
            return
        }
        let hides = messageDraws.bernoulli(profile.messages.hideProbability)
        let gap = messageInterval(profile.messages.gap)
        if hides {
            let hideDelay = messageInterval(profile.messages.sendDelay)
            // The clock is still at `cleared`: both steps are fixed offsets from it.
            wait(.fixed(cleared + hideDelay - time))
            emit(.keyboardHidden)
            wait(.fixed(max(cleared + gap, time + SimDuration(nanoseconds: 1_000_000)) - time))
            emit(.keyboardShown)
            startAfterShow()
        } else {
            pendingInterval = .fixed(gap)
        }
    }
}
