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
    /// The streams `<prefix>cloud.verdict/`, their prefix hashed once.
    private let verdictPrefix: RandomStream.Prefix

    init(config: CloudConfig, seed: UInt64, replication: Int, streamPrefix: String) {
        self.init(config: config, prefix: RandomStream.Prefix(seed: seed, replication: replication).appending(streamPrefix))
    }

    /// The verdicts of the streams `<prefix>cloud.verdict/…`, the prefix already hashed.
    init(config: CloudConfig, prefix: RandomStream.Prefix) {
        recall = config.recall
        falsePositiveRate = config.falsePositiveRate
        verdictPrefix = prefix.appending("cloud.verdict/")
    }

    /// The uniform number that decides the cloud's verdict on `word`, the `ordinal`-th word of
    /// the text: the first draw of its stream.
    func draw(ordinal: Int, word: String) -> Double {
        // The stream's key computed without building its name (checked against the named
        // stream's under KEYSIM_INTERNAL_CHECKS), and its first draw without expanding the
        // rest of its state.
        let key = verdictPrefix.appending(decimal: ordinal).appending("/").key(word)
        #if KEYSIM_INTERNAL_CHECKS
        var stream = RandomStream(key: key)
        precondition(stream.nextDouble() == RandomStream.firstDouble(key: key))
        #endif
        return RandomStream.firstDouble(key: key)
    }

    /// Whether the cloud flags a word whose draw (`draw(ordinal:word:)`) is `draw`.
    func flags(draw: Double, isError: Bool) -> Bool {
        isError ? draw < recall : draw < falsePositiveRate
    }
}
