/// The cloud checker's judgement of one word: it flags a true error with probability
/// `cloud.recall` and a correct word with `cloud.falsePositiveRate`, from the stream
/// `<prefix>cloud.verdict/<ordinal>/<word>` — so the same word at the same place gets the same
/// verdict however often, and in whichever request, it is sent.
///
/// The stream's one number (`draw(ordinal:word:)`) is taken once, when the word is sent, and
/// travels with it (`CloudClient.SentWord.verdictDraw`): the request's output tokens and the
/// answer's reconciliation both read it, without hashing the stream's name twice.
struct CloudVerdicts {
    private let recall: Double
    private let falsePositiveRate: Double
    /// The name-independent part of every stream key, and the hash of "<prefix>cloud.verdict/".
    private let keyBase: UInt64
    private let prefixHash: UInt64
    #if KEYSIM_INTERNAL_CHECKS
    private let seed: UInt64
    private let replication: Int
    private let streamPrefix: String
    #endif

    init(config: CloudConfig, seed: UInt64, replication: Int, streamPrefix: String) {
        self.init(config: config, prefix: RandomStream.Prefix(seed: seed, replication: replication).appending(streamPrefix))
    }

    /// The verdicts of the streams `<prefix>cloud.verdict/…`, the prefix already hashed.
    init(config: CloudConfig, prefix: RandomStream.Prefix) {
        recall = config.recall
        falsePositiveRate = config.falsePositiveRate
        let verdictPrefix = prefix.appending("cloud.verdict/")
        keyBase = verdictPrefix.base
        prefixHash = verdictPrefix.hash
        #if KEYSIM_INTERNAL_CHECKS
        seed = prefix.seed
        replication = prefix.replication
        streamPrefix = prefix.text
        #endif
    }

    /// The uniform number that decides the cloud's verdict on `word`, the `ordinal`-th word of
    /// the text: the first draw of its stream.
    func draw(ordinal: Int, word: String) -> Double {
        // The stream's key computed without building its name, and its first draw without
        // expanding the rest of its state.
        let key = RandomStream.streamKey(base: keyBase, prefixHash: prefixHash, number: ordinal, separator: 0x2F, suffix: word)
        #if KEYSIM_INTERNAL_CHECKS
        var stream = RandomStream(seed: seed, replication: replication, name: "\(streamPrefix)cloud.verdict/\(ordinal)/\(word)")
        precondition(stream.key == key && stream.nextDouble() == RandomStream.firstDouble(key: key))
        #endif
        return RandomStream.firstDouble(key: key)
    }

    /// Whether the cloud flags a word whose draw (`draw(ordinal:word:)`) is `draw`.
    func flags(draw: Double, isError: Bool) -> Bool {
        isError ? draw < recall : draw < falsePositiveRate
    }
}
