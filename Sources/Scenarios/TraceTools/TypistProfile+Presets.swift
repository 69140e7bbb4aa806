extension TypistProfile {
    /// The names of the presets, in the order of the documentation.
    public static let presetNames = ["chat", "email", "copying"]

    /// The preset named `name`, or `nil`.
    public static func preset(named name: String) -> TypistProfile? {
        switch name {
        case "chat": .chat
        case "email": .email
        case "copying": .copying
        default: nil
        }
    }

    /// Context timings in the order of `Context.allCases`, from (median ms, σ, pause probability).
    private static func timings(_ values: [(Double, Double, Double)]) -> [ContextTiming] {
        precondition(values.count == Context.allCases.count)
        return values.map { ContextTiming(interval: Interval(medianMs: $0.0, sigma: $0.1), pauseProbability: $0.2) }
    }

    /// A mobile typist copying sentences, one field each, as in the transcription task of
    /// Palin et al. (MobileHCI 2019, 37,370 participants): 36.2 WPM mean (SD 13.2) and 2.3 %
    /// uncorrected errors are the targets the intervals and the error shares are set to.
    public static let copying = TypistProfile(
        name: "copying",
        source: "keysim preset copying: speed and uncorrected errors of Palin et al., MobileHCI 2019 (36.2 WPM, 2.3 %)",
        contexts: timings([
            (233, 0.45, 0.002), // withinWord
            (285, 0.45, 0.01),  // afterPunctuation
            (314, 0.50, 0.015), // wordStart
            (380, 0.50, 0.04),  // phraseStart
            (456, 0.50, 0.06),  // sentenceStart
            (1100, 0.50, 0),    // messageStart
            (238, 0.40, 0.005), // afterBackspace
            (456, 0.50, 0.02),  // correction
            (618, 0.45, 0.01),  // suggestion
        ]),
        pauses: Pauses(thresholdMs: 1000, excessMedianMs: 700, shape: 2.2, maxMs: 20_000),
        errors: Errors(slipRate: 0.065, noticedInWordShare: 0.45, noticedAfterWordShare: 0.17, cursorFixShare: 0.2),
        messages: Messages(perLine: true, sendDelay: Interval(medianMs: 600, sigma: 0.4),
                           gap: Interval(medianMs: 2500, sigma: 0.5), hideProbability: 0),
        suggestions: Suggestions(pickRate: 0.04, minimumLength: 6))

    /// A mobile typist writing chat messages: the copying typist's intervals, with the
    /// pauses of composition at phrase and sentence starts, a message per line sent and the
    /// field cleared, the reply read in between (the keyboard hidden a third of the time),
    /// and more slips left in.
    public static let chat = TypistProfile(
        name: "chat",
        source: "keysim preset chat: intervals of the copying preset (Palin et al., MobileHCI 2019), composition pauses and message gaps as documented in docs/trace-format.md",
        contexts: timings([
            (245, 0.45, 0.003), // withinWord
            (300, 0.45, 0.02),  // afterPunctuation
            (330, 0.50, 0.04),  // wordStart
            (420, 0.55, 0.12),  // phraseStart
            (520, 0.55, 0.20),  // sentenceStart
            (1300, 0.60, 0),    // messageStart
            (250, 0.40, 0.005), // afterBackspace
            (480, 0.50, 0.03),  // correction
            (650, 0.45, 0.01),  // suggestion
        ]),
        pauses: Pauses(thresholdMs: 1000, excessMedianMs: 1200, shape: 1.8, maxMs: 30_000),
        errors: Errors(slipRate: 0.065, noticedInWordShare: 0.40, noticedAfterWordShare: 0.15, cursorFixShare: 0.2),
        messages: Messages(perLine: true, sendDelay: Interval(medianMs: 700, sigma: 0.4),
                           gap: Interval(medianMs: 12_000, sigma: 1.0), hideProbability: 0.3),
        suggestions: Suggestions(pickRate: 0.08, minimumLength: 6))

    /// A mobile typist writing an email: one field with returns between its lines, long
    /// composition pauses at sentence and phrase starts, and most slips noticed.
    public static let email = TypistProfile(
        name: "email",
        source: "keysim preset email: intervals of the copying preset (Palin et al., MobileHCI 2019), composition pauses as documented in docs/trace-format.md",
        contexts: timings([
            (245, 0.45, 0.004), // withinWord
            (300, 0.45, 0.03),  // afterPunctuation
            (340, 0.50, 0.05),  // wordStart
            (450, 0.55, 0.15),  // phraseStart
            (560, 0.55, 0.30),  // sentenceStart
            (1500, 0.60, 0),    // messageStart
            (250, 0.40, 0.005), // afterBackspace
            (500, 0.50, 0.03),  // correction
            (650, 0.45, 0.01),  // suggestion
        ]),
        pauses: Pauses(thresholdMs: 1000, excessMedianMs: 1800, shape: 1.6, maxMs: 60_000),
        errors: Errors(slipRate: 0.065, noticedInWordShare: 0.50, noticedAfterWordShare: 0.30, cursorFixShare: 0.35),
        messages: Messages(perLine: false, sendDelay: Interval(medianMs: 900, sigma: 0.4),
                           gap: Interval(medianMs: 5000, sigma: 0.8), hideProbability: 0),
        suggestions: Suggestions(pickRate: 0.06, minimumLength: 6))
}
