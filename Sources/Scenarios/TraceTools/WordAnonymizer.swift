import Sim

/// The word-keyed anonymisation `trace anonymize` uses: every word is replaced by random
/// letters drawn afresh for that word, keeping its length, its case and script per letter,
/// its punctuation, and — because the same word gets the same replacement within one trace —
/// which typed words match the words the typist meant (the errors the simulation needs).
///
/// The randomness of word `w` is SHA-256(K, w), with the trace key K = SHA-256 of the seed and
/// of the original trace's bytes: another trace anonymised with the same seed has another
/// key, so a trace whose text is known reveals nothing about any other. Letters are drawn
/// per position (not through a permutation), so repeated letters inside a word do not show.
///
/// Typed words arrive a key at a time, so the trace is read twice: `learn(_:)` on every
/// event first finds the word each typing episode ends as (letters typed after a separator
/// until the next separator, backspaces included); `anonymize(_:)` on every event then
/// writes position i of an episode as position i of its final word's replacement.
struct WordAnonymizer: Sendable {
    private let key: [UInt8]
    private let layout: KeyboardLayout
    private var finals: [String] = []
    private var learner = EpisodeTracker()
    private var writer = EpisodeTracker()
    private var draws: [String: [UInt32]] = [:]

    init(seed: UInt64, traceDigest: String, language: String) {
        var hasher = SHA256()
        hasher.update(Array("keysim trace anonymize 2\0".utf8))
        hasher.update((0..<8).map { UInt8(truncatingIfNeeded: seed >> (8 * UInt64($0))) })
        hasher.update(Array(traceDigest.utf8))
        key = hasher.finalize()
        layout = language.hasPrefix("ru") ? .russian : .qwerty
    }

    // MARK: - The two passes

    /// First pass: follows the typing to find each episode's final word.
    mutating func learn(_ kind: TraceEvent.Kind) {
        var words: [String] = []
        learner.apply(kind) { words.append(String(String.UnicodeScalarView($0))) }
        finals += words
    }

    /// Ends the first pass.
    mutating func finishLearning() {
        var words: [String] = []
        learner.end { words.append(String(String.UnicodeScalarView($0))) }
        finals += words
    }

    /// Second pass: the event with its letters replaced and its touch point moved.
    mutating func anonymize(_ kind: TraceEvent.Kind) -> TraceEvent.Kind {
        switch kind {
        case let .key(text, touchUp, point):
            let replaced = typed(text) { tracker, placed in tracker.type(text, placed: placed) }
            return .key(text: replaced, touchUp: touchUp, point: point.flatMap { move($0, from: text, to: replaced) })
        case .paste(let text):
            return .paste(text: typed(text) { tracker, placed in tracker.type(text, placed: placed) })
        case .suggestionPicked(let word):
            return .suggestionPicked(text: typed(word) { tracker, placed in tracker.pick(word, placed: placed) })
        case .dictationStart(.wavFile(let path, let transcript)):
            return .dictationStart(audio: .wavFile(path: path, transcript: transcript.map { anonymizeText($0) }))
        case let .dictationStart(.inline(onset, length, transcript)):
            return .dictationStart(audio: .inline(onset: onset, length: length, transcript: transcript.map { anonymizeText($0) }))
        case .field(var field):
            // A field change ends the word being typed; the field's texts stand alone.
            writer.apply(kind)
            field.text = anonymizeText(field.text)
            field.intendedText = field.intendedText.map { anonymizeText($0) }
            return .field(field)
        case .backspace, .cursorMove, .dictationStop:
            writer.apply(kind)
            return kind
        case .keyboardShown, .keyboardHidden, .languageSwitch, .network, .chipAccepted:
            return kind
        }
    }

    /// A text outside the typing (the intended text, a transcript), word by word: each
    /// maximal run of word letters is one word.
    mutating func anonymizeText(_ text: String) -> String {
        var places: [(word: String, index: Int)] = []
        var run: [Unicode.Scalar] = []
        func close() {
            let word = String(String.UnicodeScalarView(run))
            places += run.indices.map { (word, $0) }
            run.removeAll()
        }
        for character in text {
            let letters = TextAnonymizer.isEmoji(character) ? [] : character.unicodeScalars.filter(EpisodeTracker.isWordScalar)
            if letters.isEmpty { close() } else { run += letters }
        }
        close()
        return rewrite(text, places: places)
    }

    // MARK: - Letters

    /// Typed text: the writer's tracker places each word letter in its episode.
    private mutating func typed(_ text: String, _ step: (inout EpisodeTracker, ((episode: Int, index: Int)) -> Void) -> Void) -> String {
        var positions: [(episode: Int, index: Int)] = []
        step(&writer) { positions.append($0) }
        let places = positions.map { (word: $0.episode < finals.count ? finals[$0.episode] : "", index: $0.index) }
        return rewrite(text, places: places)
    }

    /// `text` with its word letters replaced, the k-th by position `places[k].index` of the
    /// replacement of word `places[k].word`.
    private mutating func rewrite(_ text: String, places: [(word: String, index: Int)]) -> String {
        var out = String.UnicodeScalarView()
        var next = 0
        for character in text {
            guard !TextAnonymizer.isEmoji(character) else { out.append(contentsOf: character.unicodeScalars); continue }
            for scalar in character.unicodeScalars {
                guard EpisodeTracker.isWordScalar(scalar), next < places.count else { out.append(scalar); continue }
                let (word, index) = places[next]
                next += 1
                out.append(replacement(for: scalar, draw: draws(for: word, atLeast: index + 1)[index]))
            }
        }
        return String(out)
    }

    /// The random numbers of a word, one per position: SHA-256(K, word, block) in blocks of
    /// eight. A position past the word's end (a letter later deleted) still gets one.
    private mutating func draws(for word: String, atLeast count: Int) -> [UInt32] {
        let normal = word.lowercased()
        var numbers = draws[normal] ?? []
        var block = numbers.count / 8
        while numbers.count < count {
            var hasher = SHA256()
            hasher.update(key)
            hasher.update([0])
            hasher.update(Array(normal.utf8))
            hasher.update([0, UInt8(truncatingIfNeeded: block), UInt8(truncatingIfNeeded: block >> 8)])
            let digest = hasher.finalize()
            for k in 0..<8 {
                numbers.append(UInt32(digest[4 * k]) | UInt32(digest[4 * k + 1]) << 8 | UInt32(digest[4 * k + 2]) << 16
                               | UInt32(digest[4 * k + 3]) << 24)
            }
            block += 1
        }
        draws[normal] = numbers
        return numbers
    }

    /// A letter of the same script and case as `scalar`, or a digit for a digit, chosen by `draw`.
    private func replacement(for scalar: Unicode.Scalar, draw: UInt32) -> Unicode.Scalar {
        switch scalar.value {
        case 0x61...0x7A: return Unicode.Scalar(0x61 + draw % 26)!
        case 0x41...0x5A: return Unicode.Scalar(0x41 + draw % 26)!
        case 0x30...0x39: return Unicode.Scalar(0x30 + draw % 10)!
        case 0x430...0x44F, 0x451: return Unicode.Scalar(0x430 + draw % 32)!
        case 0x410...0x42F, 0x401: return Unicode.Scalar(0x410 + draw % 32)!
        default:
            guard let key = TextAnonymizer.classKey(of: scalar) else { return scalar }
            let members = key.members()
            return members.isEmpty ? scalar : Unicode.Scalar(members[Int(draw % UInt32(members.count))]) ?? scalar
        }
    }

    /// A key's touch point moved to the replaced letter's key, keeping its offset from the
    /// key's centre (so a touch that missed its key misses the new one the same way);
    /// dropped when either letter has no key on the layout.
    private func move(_ point: TouchPoint, from original: String, to replaced: String) -> TouchPoint? {
        guard original != replaced else { return point }
        guard original.count == 1, replaced.count == 1, let from = layout.key(for: original.first!),
              let to = layout.key(for: replaced.first!) else { return nil }
        let x = to.center.x + (point.x - from.center.x), y = to.center.y + (point.y - from.center.y)
        return TouchPoint(x: min(max(x, 0), KeyboardLayout.widthPoints), y: min(max(y, 0), KeyboardLayout.heightPoints))
    }
}

/// Follows typing letter by letter: an episode is the letters typed from one separator to
/// the next, backspaces included; its final word is what is left when it ends.
struct EpisodeTracker: Sendable {
    private var letters: [Unicode.Scalar] = []
    /// Word letters per grapheme cluster typed in the episode, to undo a backspace.
    private var clusters: [Int] = []
    private var active = false
    private var episode = -1

    /// Whether a scalar belongs to a word: a letter or a decimal digit.
    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || scalar.properties.generalCategory == .decimalNumber
    }

    /// Follows the events that are neither typed text nor a suggestion.
    mutating func apply(_ kind: TraceEvent.Kind, ended: ([Unicode.Scalar]) -> Void = { _ in }) {
        switch kind {
        case .key(let text, _, _), .paste(let text): type(text, ended: ended) { _ in }
        case .suggestionPicked(let word): pick(word, ended: ended) { _ in }
        case .backspace:
            guard let last = clusters.popLast() else { return }
            letters.removeLast(last)
        case .cursorMove, .dictationStop, .field: end(ended)
        default: break
        }
    }

    /// Text typed at the end: each word letter is placed in the current episode (a new one
    /// after a separator); anything else ends the episode.
    mutating func type(_ text: String, ended: ([Unicode.Scalar]) -> Void = { _ in },
                       placed: ((episode: Int, index: Int)) -> Void) {
        for character in text {
            let wordLetters = TextAnonymizer.isEmoji(character) ? [] : character.unicodeScalars.filter(Self.isWordScalar)
            guard !wordLetters.isEmpty else { end(ended); continue }
            if !active { active = true; episode += 1 }
            for scalar in wordLetters {
                placed((episode, letters.count))
                letters.append(scalar)
            }
            clusters.append(wordLetters.count)
        }
    }

    /// A suggestion replaces the word being typed: the episode starts over with its letters.
    mutating func pick(_ word: String, ended: ([Unicode.Scalar]) -> Void = { _ in },
                       placed: ((episode: Int, index: Int)) -> Void) {
        letters.removeAll()
        clusters.removeAll()
        type(word, ended: ended, placed: placed)
    }

    /// Ends the current episode, if any.
    mutating func end(_ ended: ([Unicode.Scalar]) -> Void) {
        guard active else { return }
        ended(letters)
        letters.removeAll()
        clusters.removeAll()
        active = false
    }
}
