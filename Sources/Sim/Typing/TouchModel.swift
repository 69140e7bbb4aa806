/// The touch model, one of the keyboard's components: the word being typed, the newest
/// finished prediction, and touches waiting for a prediction that is still being computed.
///
/// The router calls it at three points: a key event arrives (`touched`), an edit lands
/// (`edited`, which submits the `predict` task that takes time to deliver the prediction
/// after it), and a `predict` task finishes (`predictionFinished`). When the scenario turns
/// the model off it is the no-op variant: it holds no layout or predictor, every call
/// returns at once, and no `predict` task runs, so the router calls it on every key without
/// asking whether it is on. Touch `i`
/// needs the prediction made after edit `i − 1`: if that task finished at or before the
/// touch-down, the boundaries around the predicted key move; otherwise the drawn layout
/// decides and the touch is recorded as late, by how much, once the prediction arrives.
/// The replayed text never changes: the model measures what the touch would have hit.
struct TouchModel: KeyboardComponent {
    /// The model has no events of its own: its predictions come back as task completions.
    enum Event {}

    /// What the configuration builds: the layer's geometry and the predictor.
    private struct Parts {
        let config: TouchConfig
        let geometry: TouchGeometry
        let predictor: NextLetterPredictor
        /// The key of each predictor symbol on the layer (-1: none), by code.
        let keyOfSymbol: [Int]
    }

    /// A touch waiting for the prediction after edit `keyIndex − 1`.
    private struct Pending {
        var keyIndex: Int
        var touch: SimTime
        var point: TouchPoint
        var intended: Int
    }

    /// Whether the scenario turns the model on; off, it is the no-op variant. A stored flag
    /// rather than a test of `parts`, which would copy the optional whole to look at it.
    let isOn: Bool
    /// The layer and the predictor; `nil` in the no-op variant.
    private let parts: Parts?
    private var word = WordContext()
    /// The newest finished prediction: for which edit, what, and when it finished.
    private var readyEdit = -1
    private var readyPrediction: NextLetterPredictor.Prediction?
    private var readyAt = SimTime.zero
    private var pending: [Pending] = []

    /// The model of `config`: the no-op variant when it is off.
    init(_ config: TouchConfig) {
        guard config.enabled, let predictor = config.predictor, let layout = KeyboardLayout.named(config.layoutName) else {
            isOn = false
            parts = nil
            return
        }
        let geometry = TouchGeometry(layout)
        let keyOfSymbol = predictor.symbols.enumerated().map { code, symbol in
            code == Int(NextLetterPredictor.boundary) ? geometry.spaceIndex : (geometry.keyIndex(typing: String(symbol)) ?? -1)
        }
        isOn = true
        parts = Parts(config: config, geometry: geometry, predictor: predictor, keyOfSymbol: keyOfSymbol)
        // Before the first edit the keyboard already holds the word-start prediction.
        readyPrediction = predictor.predict(after: word)
    }

    /// A key event at `time`: hit-tests it now if its prediction is ready, otherwise parks it.
    /// Events whose text is not one key of the layer are not measured.
    @inline(__always)
    mutating func touched<Sink: ObservationSink>(keyIndex: Int, kind: TraceEvent.Kind, at time: SimTime, into sink: inout Sink) {
        // The no-op variant costs the router a test, not a call, on every key.
        if isOn { measure(keyIndex: keyIndex, kind: kind, at: time, into: &sink) }
    }

    /// `touched` when the model is on.
    private mutating func measure<Sink: ObservationSink>(keyIndex: Int, kind: TraceEvent.Kind, at time: SimTime, into sink: inout Sink) {
        let geometry = parts!.geometry
        let intended: Int?
        let point: TouchPoint
        switch kind {
        case .key(let text, _, let p?):
            intended = geometry.keyIndex(typing: text)
            point = p
        case .backspace(_, let p?):
            intended = geometry.backspaceIndex
            point = p
        default:
            return
        }
        guard let intended else { return }
        let touch = Pending(keyIndex: keyIndex, touch: time, point: point, intended: intended)
        if readyEdit == keyIndex - 1 {
            decide(touch, prediction: readyPrediction, done: readyAt, into: &sink)
        } else {
            pending.append(touch)
        }
    }

    /// Edit `keyIndex` landed: the word being typed changes, and a `predict` task starts that
    /// delivers the prediction after it.
    @inline(__always)
    mutating func edited(_ edit: PendingEdit, keyIndex: Int, io: inout KeyboardIO) {
        if isOn { predict(after: edit, keyIndex: keyIndex, io: &io) }
    }

    /// `edited` when the model is on.
    private mutating func predict(after edit: PendingEdit, keyIndex: Int, io: inout KeyboardIO) {
        switch edit {
        case .insertASCII(let byte): insert(ascii: byte)
        case .insert(let text), .paste(let text): insert(text)
        case .delete: word.pop()
        case .suggestion(let text):
            word.reset()
            insert(text)
        }
        let prediction = parts!.predictor.predict(after: word)
        io.submit(.predict, context: .predict(edit: keyIndex, prediction), tag: Int64(keyIndex))
    }

    /// The `predict` task after edit `editIndex` finished at `time`: touches waiting for it
    /// are decided on the plain layout, late.
    mutating func predictionFinished<Sink: ObservationSink>(editIndex: Int, prediction: NextLetterPredictor.Prediction?,
                                                            at time: SimTime, into sink: inout Sink) {
        if editIndex > readyEdit {
            readyEdit = editIndex
            readyPrediction = prediction
            readyAt = time
        }
        guard !pending.isEmpty else { return }
        var index = 0
        while index < pending.count {
            if pending[index].keyIndex == editIndex + 1 {
                decide(pending.remove(at: index), prediction: prediction, done: time, into: &sink)
            } else {
                index += 1
            }
        }
    }

    private mutating func insert(_ text: String) {
        // ASCII fast path: one table lookup a byte; a byte the predictor never saw ends the word.
        var ascii = true
        for byte in text.utf8 where byte >= 128 { ascii = false; break }
        if ascii {
            for byte in text.utf8 { insert(ascii: byte) }
        } else {
            for character in text {
                if let code = parts!.predictor.code(of: character) { word.push(code) } else { word.reset() }
            }
        }
    }

    /// One ASCII character typed.
    @inline(__always) private mutating func insert(ascii byte: UInt8) {
        if let code = parts!.predictor.code(ascii: byte) { word.push(code) } else { word.reset() }
    }

    private func decide<Sink: ObservationSink>(_ touch: Pending, prediction: NextLetterPredictor.Prediction?, done: SimTime,
                                               into sink: inout Sink) {
        let parts = parts!
        let plain = parts.geometry.plainHit(touch.point)
        var predicted: Int?
        if let prediction, Int(prediction.symbol) < parts.keyOfSymbol.count, parts.keyOfSymbol[Int(prediction.symbol)] >= 0 {
            predicted = parts.keyOfSymbol[Int(prediction.symbol)]
        }
        var shifted = plain
        var shift = 0.0
        if done <= touch.touch, let predicted, let prediction {
            shift = parts.config.shiftPoints(probability: prediction.probability)
            shifted = parts.geometry.hit(touch.point, favouring: predicted, shift: shift)
        }
        sink.record(.touch(TouchObservation(keyIndex: touch.keyIndex, touch: touch.touch, intendedKey: touch.intended,
                                            plainKey: plain, shiftedKey: shifted, predictedKey: predicted,
                                            probability: prediction?.probability ?? 0, shiftPoints: shift, predictionDone: done)))
    }

    // MARK: - The component's shape

    func handle<Sink: ObservationSink>(_ event: Event, at now: SimTime, io: inout KeyboardIO, sink: inout Sink) {}

    /// Lost predictions come back through `predictionFinished` (with none) as the threads are
    /// reset, deciding the touches that waited for them: nothing else is held.
    mutating func reset<Sink: ObservationSink>(reason: ResetReason, io: inout KeyboardIO, sink: inout Sink) -> Int { 0 }

    /// Whether touches are still waiting for predictions.
    var isIdle: Bool { pending.isEmpty }

    func checkInvariants(io: KeyboardIO) {
        precondition(isOn == (parts != nil), "the model is on exactly when it has a layer and a predictor")
        precondition(isOn || (pending.isEmpty && readyEdit == -1), "the no-op variant holds no touches")
        precondition(zip(pending, pending.dropFirst()).allSatisfy { $0.keyIndex < $1.keyIndex }, "waiting touches stay in key order")
    }
}
