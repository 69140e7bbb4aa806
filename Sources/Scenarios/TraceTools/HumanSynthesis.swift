import Sim

/// One trace typed by the human typist, exactly as `keysim trace synth --typist` makes it:
/// the profile with the command's replacements, scaled to a speed if one is asked, and the
/// header naming the command. A population's synthesised sessions are made here too, so that
/// each of them is the trace the command in its `source` would write.
public struct HumanSynthesis: Sendable, Equatable {
    /// The typist as the command names it: a preset's name or a profile file's path.
    public var typist: String
    /// The typist's profile, as read (before the replacements below).
    public var profile: TypistProfile
    /// The seed of the typist's draws.
    public var seed: UInt64
    /// The net speed the profile's typing intervals are scaled to, if any (`--wpm`).
    public var wordsPerMinute: Double?
    /// Replaces the profile's slip rate (`--typo-rate`).
    public var typoRate: Double?
    /// Replaces the profile's touch spread (`--touch-spread`).
    public var touchSpreadPoints: Double?
    /// Replaces the profile's starting language (`--language`).
    public var language: String?
    /// The trace's name.
    public var name: String

    /// Describes a synthesis.
    public init(typist: String, profile: TypistProfile, seed: UInt64, wordsPerMinute: Double? = nil, typoRate: Double? = nil,
                touchSpreadPoints: Double? = nil, language: String? = nil, name: String) {
        self.typist = typist
        self.profile = profile
        self.seed = seed
        self.wordsPerMinute = wordsPerMinute
        self.typoRate = typoRate
        self.touchSpreadPoints = touchSpreadPoints
        self.language = language
        self.name = name
    }

    /// The command that makes this trace, as its header's `source` says (without the text
    /// file), with the options in the order of the command's usage line.
    public var source: String { command(text: nil) }

    /// The whole command that writes this trace of the text file `text` (its header's
    /// `source` leaves the text out).
    public func command(text: String?) -> String {
        var source = "keysim trace synth" + (text.map { " --text \($0)" } ?? "") + " --typist \(typist) --seed \(seed)"
        if let wordsPerMinute { source += " --wpm \(Self.format(wordsPerMinute))" }
        if let typoRate { source += " --typo-rate \(Self.format(typoRate))" }
        if let touchSpreadPoints { source += " --touch-spread \(Self.format(touchSpreadPoints))" }
        if let language { source += " --language \(language)" }
        return source
    }

    /// The header and events of the trace of `script`.
    public func trace(of script: SynthScript) -> (header: TraceHeader, events: [TraceEvent]) {
        var profile = profile
        profile.errors.slipRate = typoRate ?? profile.errors.slipRate
        profile.touchSpreadPoints = touchSpreadPoints ?? profile.touchSpreadPoints
        profile.language = language ?? profile.language
        let events: [TraceEvent]
        // Split once: scaling leaves how the profile splits the script alone.
        let messages = HumanTypist(profile: profile).messages(of: script)
        if let wordsPerMinute {
            // After the replacements: the slip rate changes how many taps the text takes.
            (profile, events) = HumanTypist.scaledTrace(of: script, messages: messages, profile: profile,
                                                        wordsPerMinute: wordsPerMinute, seed: seed)
        } else {
            events = HumanTypist(profile: profile).session(typing: script, messages: messages, seed: seed, recordsTimeline: false).events
        }
        let header = TraceHeader(name: name, language: profile.language, intendedText: HumanTypist.intendedText(of: messages),
                                 source: source)
        return (header, events)
    }

    /// The name `trace synth` gives the trace of a text file: the file's name without its
    /// folder and its last extension ("texts/notes.txt" → "notes").
    public static func traceName(ofText path: String) -> String {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = file.lastIndex(of: "."), dot != file.startIndex else { return file }
        return String(file[..<dot])
    }

    /// A number without trailing zeros: 5, 0.5, 250 (as the command line writes it).
    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
