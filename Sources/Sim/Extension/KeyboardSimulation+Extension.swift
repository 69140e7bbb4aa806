/// The extension's life inside the keyboard model: memory and kills, cold restarts that
/// hold keys, language files downloaded on demand and checked against their manifest, and
/// the device token on every cloud request. `docs/models.md` ("Memory, language files and
/// the device token") states every rule.
extension KeyboardSimulation {
    // MARK: - Memory

    /// The extension starts with base, dictionary, model and the bundled language file
    /// (and the trace's first language, when it is not the bundled one, is loaded from disk).
    mutating func startExtension<Sink: ObservationSink>(into sink: inout Sink) {
        recordMemory(.base, .start, language: nil, into: &sink)
        loadLanguage(ext.bundled, into: &sink)
        if ext.current != ext.bundled { loadLanguage(ext.current, into: &sink) }
    }

    private mutating func recordMemory<Sink: ObservationSink>(_ component: MemoryComponent, _ event: MemoryEventKind,
                                                               language: String?, into sink: inout Sink) {
        let footprint = ext.footprintMegabytes
        ext.totals.peakFootprintMegabytes = max(ext.totals.peakFootprintMegabytes, footprint)
        sink.record(.extensionLifecycle(.memory(MemoryEventRecord(time: engine.now, footprintMegabytes: footprint,
                                                                  component: component, event: event, language: language))))
    }

    /// A word was finished: the caches grow. O(1); a row only at each new whole megabyte.
    mutating func wordTyped<Sink: ObservationSink>(into sink: inout Sink) {
        guard !ext.restarting, ext.cacheMegabytes < ext.memory.cacheCapMegabytes else { return }
        ext.wordsSinceStart += 1
        let cache = ext.cacheMegabytes
        let whole = Int(cache.rounded(.down))
        guard whole > ext.cacheMegabytesRecorded || cache >= ext.memory.cacheCapMegabytes else { return }
        ext.cacheMegabytesRecorded = whole
        recordMemory(.cache, .grow, language: nil, into: &sink)
        killIfOverLimit(into: &sink)
    }

    private mutating func killIfOverLimit<Sink: ObservationSink>(into sink: inout Sink) {
        let footprint = ext.footprintMegabytes
        guard footprint > ext.memory.limitMegabytes else { return }
        kill(footprint: footprint, into: &sink)
    }

    /// The system kills the extension: every thread loses its running and queued tasks,
    /// open chips and pending checks are lost, requests in flight are abandoned, downloads
    /// are cut short, and a cold restart begins. Keys whose tasks were lost, and keys
    /// touched until the restart ends, are handled after it.
    mutating func kill<Sink: ObservationSink>(footprint: Double, into sink: inout Sink) {
        precondition(!ext.restarting, "a restarting extension holds no memory to exceed")
        var record = KillRecord(id: ext.nextKillID, time: engine.now, footprintMegabytes: footprint,
                                limitMegabytes: ext.memory.limitMegabytes, restarted: engine.now, tasksLost: 0,
                                suggestionsLost: 0, checksLost: 0, chipsLost: 0, requestsAbandoned: 0,
                                downloadsInterrupted: 0, keysHeld: [])
        ext.nextKillID += 1
        ext.restarting = true
        for thread in threads.indices {
            for taskRecord in threads[thread].reset(now: engine.now) {
                record.tasksLost += 1
                sink.recordTask(TaskObservation(thread: thread, record: taskRecord))
                switch contexts.remove(taskRecord.task.context) {
                case .key(let index, let edit, let touch, _):
                    ext.held.append(ExtensionState.HeldKey(index: index, edit: edit, touch: touch))
                case .suggestion(_, let job):
                    record.suggestionsLost += 1
                    recordSuggestion(job, outcome: .killed, into: &sink)
                case .check(let check):
                    _ = texts.remove(check.word)
                    record.checksLost += 1
                case .predict(let edit, _):
                    // The prediction is lost with the process: touches waiting for it go to
                    // the drawn keys.
                    touchModel?.predictionFinished(editIndex: edit, prediction: nil, at: engine.now, into: &sink)
                case .drawChip:
                    break
                }
            }
        }
        for id in chips.keys.sorted() {
            record.chipsLost += 1
            closeChip(id, outcome: .killed, into: &sink)
        }
        attempts.removeAll()
        for id in requests.keys.sorted() {
            let request = requests.removeValue(forKey: id)!
            record.requestsAbandoned += 1
            // The text never got through: the next request must carry it again.
            text.markDirty(fromUTF8: request.fromUTF8)
            sink.record(.request(observation(request, outcome: .killed, attempt: nil)))
        }
        lastRequestedVersion = -1
        debounceTimer.cancel(in: &engine)
        debouncer = Debouncer(config.debounce)
        for download in ext.downloads.sorted(by: { $0.id < $1.id }) {
            record.downloadsInterrupted += 1
            interrupt(download, outcome: .killed, into: &sink)
        }
        ext.resident = []
        ext.corruptLoaded = []
        ext.currentIsCorrupt = false
        ext.wordsSinceStart = 0
        ext.cacheMegabytesRecorded = 0
        recordMemory(.process, .kill, language: nil, into: &sink)
        ext.pendingKill = record
        engine.schedule(.lifecycle(.restartDone), after: ext.memory.restart.sampleDuration(&ext.restartTimes))
    }

    /// The cold restart is over: the extension loads base, dictionary, model and the
    /// current language, then handles the held keys in touch order.
    private mutating func finishRestart<Sink: ObservationSink>(into sink: inout Sink) {
        ext.restarting = false
        recordMemory(.process, .restart, language: nil, into: &sink)
        loadLanguage(ext.current, into: &sink)
        var record = ext.pendingKill!
        ext.pendingKill = nil
        record.restarted = engine.now
        let held = ext.held.sorted { $0.index < $1.index }
        ext.held = []
        record.keysHeld = held.map(\.index)
        sink.record(.extensionLifecycle(.kill(record)))
        let mainThread = threadOf[Int(KeyboardWork.key.code)]
        for key in held {
            submit(.key, context: .key(index: key.index, edit: key.edit, touch: key.touch, ahead: snapshot(mainThread)),
                   tag: Int64(key.index), deadline: config.budget(for: .key).map { key.touch + $0.limit })
        }
    }

    /// A key touched while the extension restarts waits for it. Returns whether it was held.
    mutating func holdIfRestarting(index: Int, edit: PendingEdit, touch: SimTime) -> Bool {
        guard ext.restarting else { return false }
        ext.held.append(ExtensionState.HeldKey(index: index, edit: edit, touch: touch))
        return true
    }

    // MARK: - Language files

    /// The trace switched language: the new language's file is loaded (from the bundle, or
    /// from disk after an optional check, or downloaded first); the previous one stays
    /// loaded or is evicted, as `memory.keepPreviousLanguage` says.
    mutating func switchLanguage<Sink: ObservationSink>(_ language: String, into sink: inout Sink) {
        ext.current = language
        ext.currentIsCorrupt = ext.corruptLoaded.contains(language) && ext.resident.contains(language)
        guard !ext.restarting, !ext.resident.contains(language) else { return }
        if !ext.memory.keepPreviousLanguage {
            for old in ext.resident {
                ext.resident.removeAll { $0 == old }
                ext.corruptLoaded.remove(old)
                recordMemory(.language, .evict, language: old, into: &sink)
            }
        }
        loadLanguage(language, into: &sink)
    }

    private mutating func loadLanguage<Sink: ObservationSink>(_ language: String, into sink: inout Sink) {
        guard !ext.resident.contains(language) else { return }
        let entry = ext.entry(for: language)
        func record(_ outcome: LoadOutcome, bytes: Int, verified: Bool, into sink: inout Sink) {
            sink.record(.extensionLifecycle(.load(LanguageLoadRecord(time: engine.now, language: language, bytesOnDisk: bytes,
                                                                     sizeBytes: entry.sizeBytes, verified: verified, outcome: outcome))))
        }
        if language == ext.bundled {
            record(.bundled, bytes: entry.sizeBytes, verified: false, into: &sink)
        } else {
            guard let bytes = ext.disk[language] else {
                record(.missing, bytes: 0, verified: false, into: &sink)
                startDownload(language, into: &sink)
                return
            }
            if ext.languages.verify {
                // The digest of complete content is computed once (the manifest holds it); other
                // sizes are hashed here.
                let digest = bytes == entry.sizeBytes ? entry.completeDigest : LanguageFileContent.digest(language: language, bytes: bytes)
                guard digest == entry.sha256 else {
                    record(.rejected, bytes: bytes, verified: true, into: &sink)
                    ext.disk[language] = nil
                    startDownload(language, into: &sink)
                    return
                }
                record(.loaded, bytes: bytes, verified: true, into: &sink)
            } else if bytes < entry.sizeBytes {
                record(.corrupt, bytes: bytes, verified: false, into: &sink)
                ext.corruptLoaded.insert(language)
            } else {
                record(.loaded, bytes: bytes, verified: false, into: &sink)
            }
        }
        ext.resident.append(language)
        ext.currentIsCorrupt = ext.corruptLoaded.contains(ext.current) && ext.resident.contains(ext.current)
        recordMemory(.language, .load, language: language, into: &sink)
        killIfOverLimit(into: &sink)
    }

    /// A download: one round trip, then the manifest size at the state's bandwidth. Going
    /// offline (a configured period or a trace event) or a kill interrupts it.
    private mutating func startDownload<Sink: ObservationSink>(_ language: String, into sink: inout Sink) {
        guard !ext.downloads.contains(where: { $0.language == language }) else { return }
        let entry = ext.entry(for: language)
        let id = ext.nextDownloadID
        ext.nextDownloadID += 1
        let state = channel.state(at: engine.now)
        if state == .offline {
            // No connection: nothing arrives, no file is written.
            sink.record(.extensionLifecycle(.download(DownloadRecord(id: id, language: language, start: engine.now,
                                                                     end: engine.now + config.network.offlineFailure,
                                                                     sizeBytes: entry.sizeBytes, bytes: 0, outcome: .offline))))
            return
        }
        let roundTrip = (state == .good ? config.network.goodRoundTrip : config.network.badRoundTrip).sampleDuration(&ext.downloadTimes)
        let kilobits = state == .good ? ext.languages.goodKilobitsPerSecond : ext.languages.badKilobitsPerSecond
        let bytesPerSecond = kilobits * 1000 / 8
        let transferStart = engine.now + roundTrip
        var end = transferStart + SimDuration(milliseconds: Double(entry.sizeBytes) / bytesPerSecond * 1000)
        // A configured offline period starting before the end cuts the transfer there.
        if let cut = config.network.offlinePeriods.map(\.lowerBound).filter({ $0 > engine.now && $0 < end }).min() { end = cut }
        let handle = engine.schedule(.lifecycle(.downloadEnded(download: id)), at: end)
        ext.downloads.append(ExtensionState.Download(id: id, language: language, start: engine.now, transferStart: transferStart,
                                                     bytesPerSecond: bytesPerSecond, sizeBytes: entry.sizeBytes, handle: handle))
    }

    private mutating func endDownload<Sink: ObservationSink>(_ id: Int, into sink: inout Sink) {
        guard let download = ext.downloads.first(where: { $0.id == id }) else { return }
        let bytes = ExtensionState.bytes(of: download, at: engine.now)
        if bytes < download.sizeBytes {
            interrupt(download, outcome: .offline, into: &sink)   // cut by an offline period
            return
        }
        ext.downloads.removeAll { $0.id == id }
        ext.disk[download.language] = bytes
        sink.record(.extensionLifecycle(.download(DownloadRecord(id: id, language: download.language, start: download.start,
                                                                 end: engine.now, sizeBytes: download.sizeBytes, bytes: bytes,
                                                                 outcome: .complete))))
        if download.language == ext.current && !ext.restarting { loadLanguage(download.language, into: &sink) }
    }

    /// Cuts a download short, leaving the bytes so far on disk under the file's name.
    private mutating func interrupt<Sink: ObservationSink>(_ download: ExtensionState.Download, outcome: DownloadOutcome,
                                                           into sink: inout Sink) {
        engine.cancel(download.handle)
        ext.downloads.removeAll { $0.id == download.id }
        let bytes = ExtensionState.bytes(of: download, at: engine.now)
        if bytes > 0 { ext.disk[download.language] = bytes }
        sink.record(.extensionLifecycle(.download(DownloadRecord(id: download.id, language: download.language, start: download.start,
                                                                 end: engine.now, sizeBytes: download.sizeBytes, bytes: bytes,
                                                                 outcome: outcome))))
    }

    /// The trace changed the network: going offline interrupts every download.
    mutating func networkChanged<Sink: ObservationSink>(_ condition: NetworkCondition, into sink: inout Sink) {
        guard condition == .offline else { return }
        for download in ext.downloads.sorted(by: { $0.id < $1.id }) { interrupt(download, outcome: .offline, into: &sink) }
    }

    // MARK: - Device token

    /// Checks the request's token before an attempt goes out. Returns true when the server
    /// refuses it: the refusal arrives after a round trip (stream `token.round-trip`), and
    /// the attempt does not count against `maxAttempts`.
    mutating func tokenRefused(request id: Int) -> Bool {
        guard var token = ext.token else { return false }
        let state = channel.state(at: engine.now)
        guard state != .offline else { return false }
        let verdict = token.check(at: engine.now)
        ext.token = token
        guard verdict != .accepted else { return false }
        let roundTrip = (state == .good ? config.network.goodRoundTrip : config.network.badRoundTrip).sampleDuration(&ext.tokenRoundTrips)
        engine.schedule(.lifecycle(.tokenAnswer(request: id, attempt: engine.now, verdict: verdict)), after: roundTrip)
        return true
    }

    private mutating func tokenAnswer<Sink: ObservationSink>(request id: Int, attempt: SimTime, verdict: DeviceTokenModel.Verdict,
                                                             into sink: inout Sink) {
        guard let request = requests[id] else { return }   // abandoned by a kill meanwhile
        switch verdict {
        case .accepted:
            preconditionFailure("an accepted token is not answered here")
        case .revoked(let keyboard, let server):
            sink.record(.extensionLifecycle(.tokenRejection(TokenRejectionRecord(
                requestID: id, attempt: attempt, rejected: engine.now, retry: nil, reason: .revoked,
                keyboardGeneration: keyboard, serverGeneration: server))))
            requests[id] = nil
            // The refused attempt is the request's last one.
            var request = request
            request.attempts += 1
            text.markDirty(fromUTF8: request.fromUTF8)
            if lastRequestedVersion == request.version { lastRequestedVersion = -1 }
            sink.record(.request(observation(request, outcome: .revoked, attempt: nil)))
        case .expired(let keyboard, let server):
            // The keyboard waits until the container app has stored the current token.
            let retry = ext.token!.refreshed(at: engine.now)
            sink.record(.extensionLifecycle(.tokenRejection(TokenRejectionRecord(
                requestID: id, attempt: attempt, rejected: engine.now, retry: retry, reason: .expired,
                keyboardGeneration: keyboard, serverGeneration: server))))
            engine.schedule(.lifecycle(.tokenRetry(request: id)), at: retry)
        }
    }

    // MARK: - Events

    /// Handles an event of the extension's life.
    mutating func handleLifecycle<Sink: ObservationSink>(_ event: ExtensionState.Event, into sink: inout Sink) {
        switch event {
        case .restartDone: finishRestart(into: &sink)
        case .downloadEnded(let id): endDownload(id, into: &sink)
        case .tokenAnswer(let request, let attempt, let verdict): tokenAnswer(request: request, attempt: attempt, verdict: verdict, into: &sink)
        case .tokenRetry(let request): startAttempt(for: request)
        }
    }
}
