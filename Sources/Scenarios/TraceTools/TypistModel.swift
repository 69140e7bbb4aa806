#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Sim

/// A synthetic typist: turns a `SynthScript` into a keystroke trace with realistic timing,
/// the same trace for the same seed.
///
/// The model, documented under "Synthesised traces" in `docs/trace-format.md`:
/// - Intervals between taps are lognormal (σ = `intervalSigma`) around a mean that is the
///   base interval times a factor: 2.5 at a sentence start, 1.4 at a word start, 1.3 for a
///   capital that needs shift, 1.5 for characters on the 123 layer and for return, 3 for
///   characters not on the keyboard (emoji), 1.8 for a long press (ё, ъ). The base interval
///   is scaled so that the net typing speed comes out at the requested words per minute
///   (five characters to a word), mistakes and their corrections included.
/// - A letter is mistyped with probability `typoRate` as a neighbouring key (left or right
///   twice as likely as above or below); the typist types up to two more letters of the
///   word, notices (2.5× pause), deletes back with quick backspaces (0.7×) and types the
///   right letter (1.2×). Every mistake is corrected: the trace types the script's text.
/// - Touches scatter around the key's centre, normally with σ = `touchSpreadPoints` on each
///   axis; a mistyped key is touched near its edge towards the intended key. Touches hold
///   for a lognormal 85 ms (σ = 0.25). Characters not on the keyboard have no touch point.
/// - Switching between Latin and Cyrillic letters taps the globe key: a `language` event.
/// - The keyboard shows at time 0, the first tap comes 0.6–1.2 s later, and the keyboard
///   hides 0.8–1.5 s after the last event.
public struct TypistModel: Sendable {
    /// What the typist is like.
    public struct Options: Sendable, Equatable {
        /// Net typing speed in words (five characters) per minute, 5…250.
        public var wordsPerMinute: Double
        /// Probability that a letter is mistyped, 0…0.5.
        public var typoRate: Double = 0.03
        /// Standard deviation of a touch around the key's centre, in points, 0…33.
        public var touchSpreadPoints: Double = 6
        /// The keyboard language at the start (the header's `language`).
        public var language: String = "en"
        /// The σ of the lognormal inter-key intervals.
        public var intervalSigma: Double = 0.4

        /// Options for a typist at `wordsPerMinute`.
        public init(wordsPerMinute: Double) { self.wordsPerMinute = wordsPerMinute }
    }

    /// The allowed range of `wordsPerMinute`.
    public static let wordsPerMinuteRange = 5.0...250.0
    /// The allowed range of `typoRate`.
    public static let typoRateRange = 0.0...0.5
    /// The allowed range of `touchSpreadPoints`.
    public static let touchSpreadRange = 0.0...33.0

    /// The typist.
    public let options: Options

    /// Creates a typist.
    /// - Precondition: every option is within its range.
    public init(options: Options) {
        precondition(Self.wordsPerMinuteRange.contains(options.wordsPerMinute), "words per minute out of range")
        precondition(Self.typoRateRange.contains(options.typoRate), "typo rate out of range")
        precondition(Self.touchSpreadRange.contains(options.touchSpreadPoints), "touch spread out of range")
        precondition(options.intervalSigma >= 0 && options.intervalSigma <= 2, "interval sigma out of range")
        self.options = options
    }

    /// Synthesises the trace of `script`, handing each event to `emit` in time order.
    public func synthesize<Failure: Error>(_ script: SynthScript, seed: UInt64,
                                           emit: (TraceEvent) throws(Failure) -> Void) throws(Failure) {
        let root = RandomStream(seed: seed, replication: 0, name: "trace.synth")
        var plan = Planner(options: options, random: root.derived("typos"))
        for segment in script.segments { plan.add(segment) }
        var timing = root.derived("timing")
        var touches = root.derived("touches")
        var holds = root.derived("holds")

        // The base interval: what one net character may cost, spread over the plan's factors.
        let typedCharacters = plan.typedCharacters
        let factorSum = plan.steps.reduce(0.0) { $0 + ($1.countsAsTyping ? $1.factor : 0) }
        let perCharacterMs = 12_000 / options.wordsPerMinute
        let baseMs = factorSum > 0 ? perCharacterMs * Double(typedCharacters) / factorSum : perCharacterMs

        var time = SimTime.zero
        try emit(TraceEvent(time: time, kind: .keyboardShown))
        time = time + Self.duration(milliseconds: Distribution.uniform(min: 600, max: 1200).sample(&timing))
        var first = true
        let sigma = options.intervalSigma
        for step in plan.steps {
            if !first {
                let meanMs = baseMs * step.factor
                let interval = Distribution.lognormal(mu: log(meanMs) - sigma * sigma / 2, sigma: max(sigma, 1e-9))
                time = time + Self.duration(milliseconds: interval.sample(&timing))
            }
            first = false
            switch step.action {
            case .key(let text, let key, let aim):
                let hold = Self.duration(milliseconds: Distribution.lognormal(mu: log(85), sigma: 0.25).sample(&holds))
                try emit(TraceEvent(time: time, kind: .key(text: text, touchUp: time + hold,
                                                           point: key.map { touch($0, aim: aim, &touches) })))
            case .backspace(let key):
                let hold = Self.duration(milliseconds: Distribution.lognormal(mu: log(85), sigma: 0.25).sample(&holds))
                try emit(TraceEvent(time: time, kind: .backspace(touchUp: time + hold, point: touch(key, aim: nil, &touches))))
            case .language(let language):
                try emit(TraceEvent(time: time, kind: .languageSwitch(language: language)))
            case .dictation(let audio, let transcript, let lengthNanos):
                for event in Self.dictation(audio: audio, transcript: transcript, lengthNanos: lengthNanos, at: time, &timing) {
                    try emit(event)
                    time = event.time
                }
            }
        }
        time = time + Self.duration(milliseconds: Distribution.uniform(min: 800, max: 1500).sample(&timing))
        try emit(TraceEvent(time: time, kind: .keyboardHidden))
    }

    /// A touch on `key`: around its centre, or, for a slip, near its edge towards `aim`.
    private func touch(_ key: KeyboardLayout.Key, aim: KeyboardLayout.Key?, _ random: inout RandomStream) -> TouchPoint {
        Self.touch(key, aim: aim, spread: options.touchSpreadPoints, &random)
    }

    /// A touch on `key` scattered with σ = `spread` points: around its centre, or, for a
    /// slip, near its edge towards `aim` (σ halved). Shared with `HumanTypist`.
    static func touch(_ key: KeyboardLayout.Key, aim: KeyboardLayout.Key?, spread: Double,
                      _ random: inout RandomStream) -> TouchPoint {
        touch(center: key.center, aim: aim?.center, spread: spread, &random)
    }

    /// `touch(_:aim:spread:_:)` on the key centred on `center`, aimed at the key centred on
    /// `aim`.
    static func touch(center: TouchPoint, aim: TouchPoint?, spread: Double, _ random: inout RandomStream) -> TouchPoint {
        var x = center.x, y = center.y
        var sigma = spread
        if let aim {
            x += 0.35 * (aim.x - center.x)
            y += 0.35 * (aim.y - center.y)
            sigma = spread / 2
        }
        // Box–Muller: two uniforms give two independent standard normals.
        let radius = (-2 * log(random.nextOpenUnit())).squareRoot()
        let angle = 2 * Double.pi * random.nextDouble()
        x += sigma * radius * cos(angle)
        y += sigma * radius * sin(angle)
        return TouchPoint(x: HalfAwayRounding.double(x * 10) / 10, y: HalfAwayRounding.double(y * 10) / 10)
    }

    /// A dictation tapped at `start`: the mic tap (`dictation.start` with the clip and its
    /// transcript), then the stop tap once the clip has played and 0.4–0.9 s more have
    /// passed. Shared with `HumanTypist`.
    static func dictation(audio: String, transcript: String, lengthNanos: Int64, at start: SimTime,
                          _ random: inout RandomStream) -> [TraceEvent] {
        let afterSpeech = duration(milliseconds: Distribution.uniform(min: 400, max: 900).sample(&random))
        return [TraceEvent(time: start, kind: .dictationStart(audio: .wavFile(path: audio, transcript: transcript))),
                TraceEvent(time: start + SimDuration(nanoseconds: lengthNanos) + afterSpeech, kind: .dictationStop)]
    }

    /// Whether `tag` has the shape of a BCP 47 language tag, as a trace's `language` must.
    public static func isLanguageTag(_ tag: String) -> Bool {
        TraceLineDecoder.isLanguageTag(tag)
    }

    /// Milliseconds as a duration rounded to the microsecond, so traces stay short.
    static func duration(milliseconds: Double) -> SimDuration {
        SimDuration(nanoseconds: HalfAwayRounding.int64(milliseconds * 1000) * 1000)
    }
}

// MARK: - Planning

/// The typist's actions before timing: every tap, switch and dictation, with its factor.
struct Planner {
    enum Action {
        /// A key typing `text`, touched on `key` (nil: not on the keyboard); `aim` is the
        /// intended key when this is a slip.
        case key(text: String, key: KeyboardLayout.Key?, aim: KeyboardLayout.Key?)
        case backspace(KeyboardLayout.Key)
        case language(String)
        case dictation(audio: String, transcript: String, lengthNanos: Int64)
    }

    struct Step {
        var action: Action
        var factor: Double
        /// Whether the step's interval counts towards the typing speed (not dictations).
        var countsAsTyping: Bool
    }

    let options: TypistModel.Options
    var random: RandomStream
    private(set) var steps: [Step] = []
    /// Characters of the script typed key by key.
    private(set) var typedCharacters = 0
    private var languages: TypingLanguages
    private var previous: Character?
    private var lastNonSpace: Character?

    init(options: TypistModel.Options, random: RandomStream) {
        self.options = options
        self.random = random
        languages = TypingLanguages(start: options.language)
    }

    private var letterLayout: KeyboardLayout { languages.letterLayout }

    mutating func add(_ segment: SynthScript.Segment) {
        switch segment {
        case .typed(let text):
            let characters = Array(text)
            var index = 0
            while index < characters.count {
                type(characters, at: index)
                index += 1
            }
        case let .dictation(audio, transcript, lengthNanos):
            steps.append(Step(action: .dictation(audio: audio, transcript: transcript, lengthNanos: lengthNanos),
                              factor: 2, countsAsTyping: false))
            for c in transcript { note(c) }
        }
    }

    private mutating func note(_ c: Character) {
        previous = c
        if !c.isWhitespace { lastNonSpace = c }
    }

    /// The key of `c` on the current layers, whether it is a long press, and whether it is
    /// on the letter layer (where slips happen).
    private func key(for c: Character) -> (key: KeyboardLayout.Key?, longPress: Bool, letterLayer: Bool, symbols: Bool) {
        Self.key(for: c, letterLayout: letterLayout)
    }

    /// The key of `c` on `letterLayout` or the 123 layer, whether it is a long press, and
    /// whether it is on the letter layer (where slips happen). Shared with `HumanTypist`.
    static func key(for c: Character, letterLayout: KeyboardLayout)
        -> (key: KeyboardLayout.Key?, longPress: Bool, letterLayer: Bool, symbols: Bool) {
        if let key = letterLayout.key(for: c) { return (key, false, c.isLetter, false) }
        if let base = KeyboardLayout.longPressAlternates[Character(String(c).lowercased())],
           let key = letterLayout.key(for: base) {
            return (key, true, false, false)
        }
        if let key = KeyboardLayout.symbols.key(for: c) { return (key, false, false, true) }
        return (nil, false, false, false)
    }

    private mutating func type(_ characters: [Character], at index: Int) {
        let c = characters[index]
        typedCharacters += 1
        // Letters of the other script need the globe key first.
        if let tag = languages.switchBefore(c) {
            steps.append(Step(action: .language(tag), factor: 1.5, countsAsTyping: true))
        }
        let sentenceStart = previous == nil || previous == "\n"
            || (previous!.isWhitespace && (lastNonSpace.map { ".!?".contains($0) } ?? true))
        var factor = 1.0
        if previous != nil {
            if sentenceStart { factor = 2.5 } else if previous!.isWhitespace { factor = 1.4 }
        }
        let found = key(for: c)
        if c.isUppercase && !sentenceStart { factor *= 1.3 }
        if found.symbols || c == "\n" { factor *= 1.5 }
        if found.longPress { factor *= 1.8 }
        if found.key == nil { factor *= 3 }

        let slips = found.letterLayer && options.typoRate > 0 && random.bernoulli(options.typoRate)
        if slips, let intended = found.key, let wrong = pickNeighbour(of: intended) {
            let wrongText = c.isUppercase ? wrong.label.uppercased() : wrong.label
            steps.append(Step(action: .key(text: wrongText, key: wrong, aim: intended), factor: factor, countsAsTyping: true))
            // Up to two more letters of the word before the slip is noticed.
            var more = [0, 0, 0, 0, 0, 1, 1, 1, 2, 2][random.nextInt(below: 10)]
            var following: [Character] = []
            var next = index + 1
            while following.count < more, next < characters.count, characters[next].isLetter,
                  key(for: characters[next]).letterLayer {
                following.append(characters[next])
                next += 1
            }
            more = following.count
            for letter in following {
                steps.append(Step(action: .key(text: String(letter), key: key(for: letter).key, aim: nil),
                                  factor: 1, countsAsTyping: true))
            }
            for deletion in 0...more {
                steps.append(Step(action: .backspace(letterLayout.backspace), factor: deletion == 0 ? 2.5 : 0.7,
                                  countsAsTyping: true))
            }
            factor = 1.2
        }
        steps.append(Step(action: .key(text: String(c), key: found.key, aim: nil), factor: factor, countsAsTyping: true))
        note(c)
    }

    private mutating func pickNeighbour(of key: KeyboardLayout.Key) -> KeyboardLayout.Key? {
        Self.pickNeighbour(of: key, on: letterLayout, &random)
    }

    /// A neighbour of `key`, left or right twice as likely as above or below. Shared with
    /// `HumanTypist`.
    static func pickNeighbour(of key: KeyboardLayout.Key, on letterLayout: KeyboardLayout,
                              _ random: inout RandomStream) -> KeyboardLayout.Key? {
        let table = letterLayout.name == KeyboardLayout.qwerty.name ? qwertyNeighbours
            : letterLayout.name == KeyboardLayout.russian.name ? russianNeighbours : nil
        let neighbours = table?.neighbours(of: key) ?? letterLayout.neighbours(of: key)
        let total = neighbours.reduce(0) { $0 + $1.weight }
        guard total > 0 else { return nil }
        var draw = random.nextInt(below: total)
        for (neighbour, weight) in neighbours {
            if draw < weight { return neighbour }
            draw -= weight
        }
        return nil
    }

    /// `neighbours(of:)` of the letter layers' character keys, asked once each: a slip asks
    /// for them, and building them walks every key of the layer.
    private static let qwertyNeighbours = NeighbourTable(.qwerty)
    private static let russianNeighbours = NeighbourTable(.russian)

    /// The neighbours of each character key of a layout, found by the key's row and column.
    private struct NeighbourTable: Sendable {
        let layout: KeyboardLayout
        /// The index in `characterKeys` of each row's first key.
        let rowStarts: [Int]
        let neighbours: [[(key: KeyboardLayout.Key, weight: Int)]]

        init(_ layout: KeyboardLayout) {
            self.layout = layout
            var starts: [Int] = []
            for (index, key) in layout.characterKeys.enumerated() where key.row == starts.count { starts.append(index) }
            rowStarts = starts
            neighbours = layout.characterKeys.map { layout.neighbours(of: $0) }
        }

        /// `layout.neighbours(of: key)`, or `nil` when `key` is not one of its character keys.
        func neighbours(of key: KeyboardLayout.Key) -> [(key: KeyboardLayout.Key, weight: Int)]? {
            guard key.row >= 0, key.row < rowStarts.count, key.column >= 0 else { return nil }
            let index = rowStarts[key.row] + key.column
            guard index < layout.characterKeys.count, layout.characterKeys[index] == key else { return nil }
            return neighbours[index]
        }
    }
}
