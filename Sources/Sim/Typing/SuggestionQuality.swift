/// The suggestion bar's quality model, one of the keyboard's components: after every landed
/// edit it notes which word is being typed and the dictionary node of its typed prefix (the
/// bar for that text version), after every bar shown whether it was on screen before the
/// next touch, and at the end it scores each word of the intended text against those bars.
///
/// The per-key work is a few integer steps: the typed prefix is walked through the
/// dictionary's trie byte by byte (ASCII lower-cased in place) and a 16-byte record is
/// stored; no strings are built. Whether the bar held the intended word, and the
/// re-ranker's lift (stream `suggestions.rerank-lift`), are decided at the end in key order,
/// so the same bars give the same figures whether or not the trace carried its intended text.
/// Without a dictionary (`typing.dictionary`) it is the no-op variant: every call returns at
/// once and `finish` gives no figures, so the router calls it on every key without asking.
/// `docs/models.md` ("Typing quality") defines every figure.
struct SuggestionQuality: KeyboardComponent {
    /// The model has no events of its own: it hears of edits and bars from the router.
    enum Event {}

    /// The bar after one edit.
    struct Bar: Equatable {
        /// The word being typed: the last token's ordinal, or the next one after white space.
        var ordinal: Int32 = -1
        /// The dictionary node of the typed prefix (`WordDictionary.none` when no word starts so).
        var node: Int32 = WordDictionary.none
        /// The typed prefix's length in characters.
        var prefixLength: Int32 = 0
        /// Bit 0: the edit left the text inside the word (a keystroke of that word);
        /// bit 1: the bar was shown before the next touch; bit 2: the edit landed.
        var flags: UInt8 = 0

        static let inWord: UInt8 = 1
        static let shownInTime: UInt8 = 2
        static let landed: UInt8 = 4
    }

    /// Whether the scenario names a dictionary; without one this is the no-op variant.
    let isOn: Bool
    /// The dictionary (an empty one in the no-op variant, which never reads it).
    let dictionary: WordDictionary
    let rerankLift: Double
    private var lifts: RandomStream
    /// The intended words (lower-cased, punctuation stripped) of the field being typed, if known.
    private var intendedWords: [String]?
    /// The first key of the field being typed: bars from it on are scored against its words.
    private var fieldStartKey = 0
    /// Words of earlier fields, scored when their field ended, and how many words they had.
    private var earlierWords: [WordQuality] = []
    private var earlierWordCount = 0
    /// Whether `intendedWords` are the trace header's, not yet replaced by a field's. The
    /// header's text stands for the whole trace: when the trace opens a field of its own before
    /// anything is typed, the header's words were never a field, and do not count among the
    /// words before the field's (a trace of messages would otherwise number its words from the
    /// header's word count on).
    private var intendedFromHeader: Bool
    /// Bars by key index.
    private(set) var bars: [Bar] = []
    /// The bar of the last landed edit and the text version it was for, when the next edit
    /// can extend it by one byte: the text then ended in white space (or was empty), or in
    /// an all-ASCII word whose last byte is a letter or digit (nothing stripped at its end).
    private var extendable: (version: Int, bar: Bar)?

    /// The job's memos, for the words of intended texts.
    private let caches: SimulationCaches?

    /// The no-op variant's empty dictionary, built once rather than for every replication
    /// (an empty trie still allocates its root's rows).
    private static let noDictionary = WordDictionary(entries: [])

    /// The model over `dictionary`, or the no-op variant when there is none; the words of
    /// intended texts are looked up in `caches` when given.
    init(dictionary: WordDictionary?, rerankLift: Double, lifts: RandomStream, intendedText: String?,
         caches: SimulationCaches? = nil) {
        isOn = dictionary != nil
        self.dictionary = dictionary ?? Self.noDictionary
        self.rerankLift = rerankLift
        self.lifts = lifts
        self.caches = caches
        intendedFromHeader = intendedText != nil
        if isOn { intendedWords = intendedText.map(words(of:)) }
    }

    /// The words of `text` (`splitWords`), from the job's memo when there is one.
    private func words(of text: String) -> [String] { caches?.qualityWords(of: text) ?? Self.splitWords(text) }

    /// The words of `text`, lower-cased: split at white space, leading and trailing
    /// punctuation removed.
    static func splitWords(_ text: String) -> [String] {
        // Split on ASCII white space without Unicode tables when the text is ASCII.
        let tokens = text.utf8.allSatisfy { $0 < 0x80 }
            ? text.utf8.split(whereSeparator: TextBuffer.isASCIIWhitespace).map { Substring($0) }
            : text.split(whereSeparator: \.isWhitespace)
        return tokens.map { TextBuffer.word(in: $0, tokenStart: 0).text.lowercased() }
    }

    /// The field changed: its words are scored against its bars now, and the new field's
    /// words (from `intendedText`, or its final text when `nil`) against the bars to come.
    mutating func fieldChanged(finalText: TextBuffer, intendedText: String?) {
        guard isOn else { return }
        // The header's words, standing in for a field nothing was typed in: not a field.
        if !(intendedFromHeader && bars.count == fieldStartKey && finalText.utf8.isEmpty) {
            let (words, count) = score(finalText: finalText)
            earlierWords += words.map { var word = $0; word.ordinal += earlierWordCount; return word }
            earlierWordCount += count
        }
        intendedFromHeader = false
        fieldStartKey = bars.count
        intendedWords = intendedText.map(words(of:))
        extendable = nil
    }

    /// Notes the bar for the text right after key `keyIndex`'s edit landed. `insertedASCII`
    /// is the byte the edit typed when it typed one ASCII character.
    mutating func editLanded(keyIndex: Int, text: TextBuffer, insertedASCII: UInt8? = nil) {
        guard isOn else { return }
        let bar: Bar
        if let byte = insertedASCII, TextBuffer.isASCIIAlphanumeric(byte), let previous = extendable,
           previous.version == text.version - 1 {
            // One letter or digit more on the word being typed (or the first of a new word):
            // one step down the trie, the same node the full walk below would reach.
            var extended = previous.bar
            extended.flags = Bar.landed | Bar.inWord
            extended.node = extended.node == WordDictionary.none
                ? WordDictionary.none : dictionary.child(of: extended.node, byte: byte &- 0x41 < 26 ? byte | 0x20 : byte)
            extended.prefixLength += 1
            extendable = (text.version, extended)
            bar = extended
        } else {
            bar = barByWalking(text)
        }
        if keyIndex >= bars.count {
            if bars.count == bars.capacity { bars.reserveCapacity(Swift.max(1024, bars.capacity &* 2)) }
            while bars.count <= keyIndex { bars.append(Bar()) }
        }
        bars[keyIndex] = bar
    }

    /// The bar for `text`, its word found and walked through the trie from the root.
    private mutating func barByWalking(_ text: TextBuffer) -> Bar {
        var bar = Bar()
        bar.flags = Bar.landed
        extendable = nil
        if Self.endsInWhiteSpace(text) || text.wordCount == 0 {
            // Between words: the bar offers the next word's most likely completions of "".
            bar.ordinal = Int32(text.wordCount)
            bar.node = WordDictionary.root
            extendable = (text.version, bar)
        } else if let token = text.tokenRange(text.wordCount - 1), let word = text.wordRange(ofToken: text.wordCount - 1) {
            bar.ordinal = Int32(text.wordCount - 1)
            bar.flags |= Bar.inWord
            var node = WordDictionary.root
            var length: Int32 = 0
            var ascii = true
            for byte in text.utf8[word] {
                guard byte < 0x80 else { ascii = false; break }
                // ASCII upper case to lower case in place: the dictionary is lower-cased.
                node = dictionary.child(of: node, byte: byte &- 0x41 < 26 ? byte | 0x20 : byte)
                length += 1
            }
            if !ascii {
                // Rare path: lower-casing beyond ASCII needs the Unicode tables.
                let string = text.string(utf8: word)
                node = dictionary.node(forUTF8: string.lowercased().utf8)
                length = Int32(string.count)
            }
            bar.node = node
            bar.prefixLength = length
            if ascii, let last = text.utf8[word].last, TextBuffer.isASCIIAlphanumeric(last),
               word.count == token.count || text.utf8[token.upperBound - 1] == last {
                extendable = (text.version, bar)
            }
        }
        return bar
    }

    /// Notes that key `keyIndex`'s bar was shown, before the next touch or not.
    mutating func barShown(keyIndex: Int, inTime: Bool) {
        guard isOn else { return }
        if inTime && keyIndex < bars.count { bars[keyIndex].flags |= Bar.shownInTime }
    }

    /// Scores every word of every field's intended text (or, without one, of its final text)
    /// the replay reached against the bars noted, in key order; none in the no-op variant.
    mutating func finish(finalText: TextBuffer, keystrokes: Int) -> TypingQuality? {
        guard isOn else { return nil }
        let (words, _) = score(finalText: finalText)
        return TypingQuality(words: earlierWords + words.map { var word = $0; word.ordinal += earlierWordCount; return word },
                             keystrokes: keystrokes)
    }

    /// The words of the field being typed, scored against its bars; and its word count.
    private mutating func score(finalText: TextBuffer) -> (words: [WordQuality], count: Int) {
        let intended: [String] = intendedWords ?? (0..<finalText.wordCount).map { ordinal in
            guard let word = finalText.wordRange(ofToken: ordinal) else { return "" }
            return finalText.string(utf8: word).lowercased()
        }
        let ranks = intended.map { dictionary.rank(of: $0) ?? -1 }
        // Characters, counted without the grapheme tables for the ASCII words most are (a
        // word holds no CR LF, the one ASCII pair that is a single character).
        let lengths = intended.map { Int32($0.utf8.allSatisfy { $0 < 0x80 } ? $0.utf8.count : $0.count) }
        var reached = [Bool](repeating: false, count: intended.count)
        var typed = [Int](repeating: 0, count: intended.count)
        var first = [Int32](repeating: -1, count: intended.count)
        var firstInTime = [Int32](repeating: -1, count: intended.count)
        for bar in bars[fieldStartKey...] where bar.flags & Bar.landed != 0 {
            let ordinal = Int(bar.ordinal)
            guard ordinal < intended.count else { continue }
            reached[ordinal] = true
            if bar.flags & Bar.inWord != 0 { typed[ordinal] += 1 }
            let rank = ranks[ordinal]
            guard rank >= 0, bar.prefixLength < lengths[ordinal], first[ordinal] < 0 || firstInTime[ordinal] < 0 else { continue }
            var held = dictionary.barHolds(bar.node, rank: rank)
            if !held && rerankLift > 0 && dictionary.isCompletion(rank: rank, of: bar.node) {
                held = lifts.nextDouble() < rerankLift
            }
            guard held else { continue }
            if first[ordinal] < 0 { first[ordinal] = bar.prefixLength }
            if bar.flags & Bar.shownInTime != 0 && firstInTime[ordinal] < 0 { firstInTime[ordinal] = bar.prefixLength }
        }
        var words: [WordQuality] = []
        for ordinal in intended.indices where reached[ordinal] && lengths[ordinal] > 0 {
            words.append(WordQuality(ordinal: ordinal, intendedLength: Int(lengths[ordinal]), keystrokes: typed[ordinal],
                                     inDictionary: ranks[ordinal] >= 0,
                                     firstInBarPrefix: first[ordinal] < 0 ? nil : Int(first[ordinal]),
                                     firstInBarInTimePrefix: firstInTime[ordinal] < 0 ? nil : Int(firstInTime[ordinal])))
        }
        return (words, intended.count)
    }

    private static func endsInWhiteSpace(_ text: TextBuffer) -> Bool {
        guard let last = text.utf8.last else { return true }
        if last < 0x80 { return TextBuffer.isASCIIWhitespace(last) }
        return text.lastCharacter.map(TextBuffer.isWhitespace) ?? true
    }

    // MARK: - The component's shape

    func handle<Sink: ObservationSink>(_ event: Event, at now: SimTime, io: inout KeyboardIO, sink: inout Sink) {}

    /// The bars noted survive a kill: they measure what the user saw, and the keys held for
    /// the restart note theirs when they land.
    mutating func reset<Sink: ObservationSink>(reason: ResetReason, io: inout KeyboardIO, sink: inout Sink) -> Int { 0 }

    /// Nothing of the model is ever pending.
    var isIdle: Bool { true }

    func checkInvariants(io: KeyboardIO) {
        precondition(isOn || (bars.isEmpty && intendedWords == nil), "the no-op variant notes nothing")
        precondition(fieldStartKey <= bars.count, "a field starts at or before the next key noted")
    }
}
