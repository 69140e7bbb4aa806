import Sim

/// The word-keyed anonymisation `trace anonymize` uses: every word is replaced by random
/// letters drawn afresh for that word, keeping its length, its case and script per letter,
/// its punctuation, and — because the same word gets the same replacement within one trace —
/// which typed words match the words the typist meant (the errors the simulation needs).
///
/// The randomness of word `w` comes from its word key W = SHA-256(K, lower-cased w), with the
/// trace key K = SHA-256 of the seed and of the original trace's bytes: another trace
/// anonymised with the same seed has another key, so a trace whose text is known reveals
/// nothing about any other. Letters are drawn per position (not through a permutation), so
/// repeated letters inside a word do not show: eight positions from each SHA-256(W, block).
///
/// Typed words arrive a key at a time, so the trace is read twice: `learn(_:)` on every
/// event first finds the word each typing episode ends as (letters typed after a separator
/// until the next separator, backspaces included); `anonymize(_:)` on every event then
/// writes position i of an episode as position i of its final word's replacement.
///
/// Linear in the trace: each word is lower-cased, hashed and looked up once per episode or
/// run of letters (words are numbered as they are first met), and each letter costs at most
/// one SHA-256 block and O(1) else, however long its word.
struct WordAnonymizer: Sendable {
    private let key: [UInt8]
    private let layout: KeyboardLayout
    /// The number of each episode's final word, in episode order.
    private var finals: [Int] = []
    private var learner = EpisodeTracker()
    private var writer = EpisodeTracker()
    /// Each word met, lower-cased, with its number.
    private var numbers: [String: Int] = [:]
    /// Per word number: its word key W and its last block of draws.
    private var streams: [WordStream] = []
    /// The members of each class of letters met (`TextAnonymizer.classKey`), looked up,
    /// never iterated.
    private var classes: [TextAnonymizer.ClassKey: [UInt32]] = [:]

    /// The random numbers of one word: its key and the eight draws of one block.
    private struct WordStream {
        var key: [UInt8]
        var block = -1
        var numbers: [UInt32] = []
    }

    init(seed: UInt64, traceDigest: String, language: String) {
        var hasher = SHA256()
        hasher.update(Array("keysim trace anonymize 3\0".utf8))
        hasher.update((0..<8).map { UInt8(truncatingIfNeeded: seed >> (8 * UInt64($0))) })
        hasher.update(Array(traceDigest.utf8))
        key = hasher.finalize()
        layout = language.hasPrefix("ru") ? .russian : .qwerty
    }

    // MARK: - The two passes

    /// First pass: follows the typing to find each episode's final word.
    mutating func learn(_ kind: TraceEvent.Kind) {
        var ended: [[Unicode.Scalar]] = []
        learner.apply(kind) { ended.append($0) }
        for word in ended { finals.append(number(of: word)) }
    }

    /// Ends the first pass.
    mutating func finishLearning() {
        var ended: [[Unicode.Scalar]] = []
        learner.end { ended.append($0) }
        for word in ended { finals.append(number(of: word)) }
    }

    /// Second pass: the event with its letters replaced and its touch point moved.
    mutating func anonymize(_ kind: TraceEvent.Kind) -> TraceEvent.Kind {
        switch kind {
        case let .key(text, touchUp, point):
            let replaced = typed(text) { tracker, placed in tracker.type(text, placed: placed) }
            return .key(text: replaced, touchUp: touchUp, point: point.flatMap { Self.move($0, from: text, to: replaced, on: layout) })
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

    /// A text outside the typing (the intended text, a transcript, the header's name), word
    /// by word: each maximal run of word letters is one word.
    mutating func anonymizeText(_ text: String) -> String {
        var places: [(word: Int, index: Int)] = []
        var run: [Unicode.Scalar] = []
        func close() {
            guard !run.isEmpty else { return }
            let word = number(of: run)
            places += run.indices.map { (word, $0) }
            run.removeAll(keepingCapacity: true)
        }
        for character in text {
            let letters = TextAnonymizer.isEmoji(character) ? [] : character.unicodeScalars.filter(EpisodeTracker.isWordScalar)
            if letters.isEmpty { close() } else { run += letters }
        }
        close()
        return rewrite(text, places: places)
    }

    // MARK: - Letters

    /// The number of `word` (lower-cased), numbering it and making its word key when new.
    private mutating func number(of word: [Unicode.Scalar]) -> Int {
        let normal = String(String.UnicodeScalarView(word)).lowercased()
        if let known = numbers[normal] { return known }
        var hasher = SHA256()
        hasher.update(key)
        hasher.update([0])
        hasher.update(normal.utf8)
        numbers[normal] = streams.count
        streams.append(WordStream(key: hasher.finalize()))
        return streams.count - 1
    }

    /// Typed text: the writer's tracker places each word letter in its episode. A letter of
    /// an episode the first pass never saw end (none do) would take the empty word's draws.
    private mutating func typed(_ text: String, _ step: (inout EpisodeTracker, ((episode: Int, index: Int)) -> Void) -> Void) -> String {
        var positions: [(episode: Int, index: Int)] = []
        step(&writer) { positions.append($0) }
        var places: [(word: Int, index: Int)] = []
        places.reserveCapacity(positions.count)
        for position in positions {
            let word = position.episode < finals.count ? finals[position.episode] : number(of: [])
            places.append((word, position.index))
        }
        return rewrite(text, places: places)
    }

    /// `text` with its word letters replaced, the k-th by position `places[k].index` of the
    /// replacement of word number `places[k].word`.
    private mutating func rewrite(_ text: String, places: [(word: Int, index: Int)]) -> String {
        var out = String.UnicodeScalarView()
        var next = 0
        for character in text {
            guard !TextAnonymizer.isEmoji(character) else { out.append(contentsOf: character.unicodeScalars); continue }
            for scalar in character.unicodeScalars {
                guard EpisodeTracker.isWordScalar(scalar), next < places.count else { out.append(scalar); continue }
                let (word, index) = places[next]
                next += 1
                let number = draw(word: word, position: index)
                out.append(replacement(for: scalar, draw: number))
            }
        }
        return String(out)
    }

    /// The random number of position `position` of word number `word`: number `position % 8`
    /// of SHA-256(W, block `position / 8`). A position past the word's end (a letter later
    /// deleted) still gets one. Letters come mostly in order, so each word keeps its last
    /// block: one digest per eight letters, and memory per word, not per letter.
    private mutating func draw(word: Int, position: Int) -> UInt32 {
        let block = position / 8
        if streams[word].block != block {
            var hasher = SHA256()
            hasher.update(streams[word].key)
            hasher.update((0..<8).map { UInt8(truncatingIfNeeded: UInt64(block) >> (8 * UInt64($0))) })
            let digest = hasher.finalize()
            streams[word].numbers = (0..<8).map { k in
                UInt32(digest[4 * k]) | UInt32(digest[4 * k + 1]) << 8 | UInt32(digest[4 * k + 2]) << 16 | UInt32(digest[4 * k + 3]) << 24
            }
            streams[word].block = block
        }
        return streams[word].numbers[position % 8]
    }

    /// A letter of the same script and case as `scalar`, or a digit for a digit, chosen by
    /// `draw`. (Mutating for its cache of classes; a non-mutating method of `self` called
    /// from a mutating one would copy the whole anonymiser per letter.)
    private mutating func replacement(for scalar: Unicode.Scalar, draw: UInt32) -> Unicode.Scalar {
        switch scalar.value {
        case 0x61...0x7A: return Unicode.Scalar(0x61 + draw % 26)!
        case 0x41...0x5A: return Unicode.Scalar(0x41 + draw % 26)!
        case 0x30...0x39: return Unicode.Scalar(0x30 + draw % 10)!
        case 0x430...0x44F, 0x451: return Unicode.Scalar(0x430 + draw % 32)!
        case 0x410...0x42F, 0x401: return Unicode.Scalar(0x410 + draw % 32)!
        default:
            guard let key = TextAnonymizer.classKey(of: scalar) else { return scalar }
            if classes[key] == nil { classes[key] = key.members() }
            let members = classes[key]!
            return members.isEmpty ? scalar : Unicode.Scalar(members[Int(draw % UInt32(members.count))]) ?? scalar
        }
    }

    /// A key's touch point moved to the replaced letter's key, keeping its offset from the
    /// key's centre (so a touch that missed its key misses the new one the same way);
    /// dropped when either letter has no key on the layout.
    private static func move(_ point: TouchPoint, from original: String, to replaced: String, on layout: KeyboardLayout) -> TouchPoint? {
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
        // ASCII without the property tables, which cost most of the time of a long word.
        if scalar.isASCII {
            let v = scalar.value
            return (v >= 0x61 && v <= 0x7A) || (v >= 0x41 && v <= 0x5A) || (v >= 0x30 && v <= 0x39)
        }
        return scalar.properties.isAlphabetic || scalar.properties.generalCategory == .decimalNumber
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
