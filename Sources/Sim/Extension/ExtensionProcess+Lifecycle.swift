/// The rules of the extension's life: memory, kills and restarts, language files.
extension ExtensionProcess {
    // MARK: - Events

    mutating func handle<Sink: ObservationSink>(_ event: Event, at now: SimTime, io: inout KeyboardIO, sink: inout Sink) -> Output {
        switch event {
        case .restartDone: return finishRestart(io: &io, sink: &sink)
        case .downloadEnded(let id): return endDownload(id, io: &io, sink: &sink)
        }
    }

    // MARK: - Memory

    /// The extension starts with base, dictionary, model and the bundled language file
    /// (and the trace's first language, when it is not the bundled one, is loaded from disk).
    mutating func start<Sink: ObservationSink>(io: inout KeyboardIO, sink: inout Sink) -> Output {
        recordMemory(.base, .start, language: nil, io: io, sink: &sink)
        let bundledLoad = loadLanguage(bundled, io: &io, sink: &sink)
        if current != bundled { return loadLanguage(current, io: &io, sink: &sink) }
        return bundledLoad
    }

    private mutating func recordMemory<Sink: ObservationSink>(_ component: MemoryComponent, _ event: MemoryEventKind,
                                                               language: String?, io: KeyboardIO, sink: inout Sink) {
        let footprint = footprintMegabytes
        totals.peakFootprintMegabytes = max(totals.peakFootprintMegabytes, footprint)
        sink.record(.extensionLifecycle(.memory(MemoryEventRecord(time: io.now, footprintMegabytes: footprint,
                                                                  component: component, event: event, language: language))))
    }

    /// A word was finished: the caches grow. O(1); a row only at each new whole megabyte.
    mutating func wordFinished<Sink: ObservationSink>(io: inout KeyboardIO, sink: inout Sink) -> Output {
        guard !restarting, cacheMegabytes < memory.cacheCapMegabytes else { return .none }
        wordsSinceStart += 1
        let cache = cacheMegabytes
        let whole = Int(cache.rounded(.down))
        guard whole > cacheMegabytesRecorded || cache >= memory.cacheCapMegabytes else { return .none }
        cacheMegabytesRecorded = whole
        recordMemory(.cache, .grow, language: nil, io: io, sink: &sink)
        return overLimit()
    }

    private func overLimit() -> Output {
        let footprint = footprintMegabytes
        return footprint > memory.limitMegabytes ? .overLimit(footprintMegabytes: footprint) : .none
    }

    /// The system kills the extension: the process is gone from now until the restart
    /// ends. Returns the kill's record, for the router to fill in as it resets the other
    /// components, and to hand back through `killed(_:io:sink:)`.
    mutating func beginKill(footprintMegabytes footprint: Double, at now: SimTime) -> KillRecord {
        precondition(!restarting, "a restarting extension holds no memory to exceed")
        let record = KillRecord(id: nextKillID, time: now, footprintMegabytes: footprint,
                                limitMegabytes: memory.limitMegabytes, restarted: now, tasksLost: 0,
                                suggestionsLost: 0, checksLost: 0, chipsLost: 0, requestsAbandoned: 0,
                                downloadsInterrupted: 0, keysHeld: [])
        nextKillID += 1
        restarting = true
        return record
    }

    /// A key whose task was lost with the process: it is handled after the restart.
    mutating func hold(_ key: HeldKey) { held.append(key) }

    /// Downloads are cut short (in id order) and the process forgets what it had loaded.
    mutating func reset<Sink: ObservationSink>(reason: ResetReason, io: inout KeyboardIO, sink: inout Sink) -> Int {
        let interrupted = downloads.sorted(by: { $0.id < $1.id })
        for download in interrupted { interrupt(download, outcome: .killed, io: &io, sink: &sink) }
        resident = []
        corruptLoaded = []
        currentIsCorrupt = false
        wordsSinceStart = 0
        cacheMegabytesRecorded = 0
        return interrupted.count
    }

    /// Every other component has been reset: the kill is recorded when the restart ends,
    /// which starts now.
    mutating func killed<Sink: ObservationSink>(_ record: KillRecord, io: inout KeyboardIO, sink: inout Sink) {
        var record = record
        record.downloadsInterrupted = reset(reason: .kill, io: &io, sink: &sink)
        recordMemory(.process, .kill, language: nil, io: io, sink: &sink)
        pendingKill = record
        io.schedule(.process(.restartDone), after: memory.restart.sampleDuration(&restartTimes))
    }

    /// The cold restart is over: the extension loads base, dictionary, model and the
    /// current language; the held keys go to the router in touch order.
    private mutating func finishRestart<Sink: ObservationSink>(io: inout KeyboardIO, sink: inout Sink) -> Output {
        restarting = false
        recordMemory(.process, .restart, language: nil, io: io, sink: &sink)
        let load = loadLanguage(current, io: &io, sink: &sink)
        // Base, dictionary, model and one language file fit under the limit (`MemoryConfig.problems`).
        guard case .none = load else { preconditionFailure("a restarted extension fits under its limit") }
        var record = pendingKill!
        pendingKill = nil
        record.restarted = io.now
        let keys = held.sorted { $0.index < $1.index }
        held = []
        record.keysHeld = keys.map(\.index)
        sink.record(.extensionLifecycle(.kill(record)))
        return .restarted(heldKeys: keys)
    }

    /// A key touched while the extension restarts waits for it. Returns whether it was held.
    mutating func holdIfRestarting(index: Int, edit: PendingEdit, touch: SimTime) -> Bool {
        guard restarting else { return false }
        held.append(HeldKey(index: index, edit: edit, touch: touch))
        return true
    }

    /// A suggestion was shown while the current language's model is corrupt.
    mutating func suggestionShown() { if currentIsCorrupt { totals.silentlyWrongSuggestions += 1 } }

    /// A word was checked while the current language's model is corrupt.
    mutating func wordChecked() { if currentIsCorrupt { totals.silentlyWrongChecks += 1 } }

    // MARK: - Language files

    /// The trace switched language: the new language's file is loaded (from the bundle, or
    /// from disk after an optional check, or downloaded first); the previous one stays
    /// loaded or is evicted, as `memory.keepPreviousLanguage` says.
    mutating func switchLanguage<Sink: ObservationSink>(_ language: String, io: inout KeyboardIO, sink: inout Sink) -> Output {
        current = language
        currentIsCorrupt = corruptLoaded.contains(language) && resident.contains(language)
        guard !restarting, !resident.contains(language) else { return .none }
        if !memory.keepPreviousLanguage {
            for old in resident {
                resident.removeAll { $0 == old }
                corruptLoaded.remove(old)
                recordMemory(.language, .evict, language: old, io: io, sink: &sink)
            }
        }
        return loadLanguage(language, io: &io, sink: &sink)
    }

    private mutating func loadLanguage<Sink: ObservationSink>(_ language: String, io: inout KeyboardIO, sink: inout Sink) -> Output {
        guard !resident.contains(language) else { return .none }
        let entry = entry(for: language)
        func record(_ outcome: LoadOutcome, bytes: Int, verified: Bool, into sink: inout Sink) {
            sink.record(.extensionLifecycle(.load(LanguageLoadRecord(time: io.now, language: language, bytesOnDisk: bytes,
                                                                     sizeBytes: entry.sizeBytes, verified: verified, outcome: outcome))))
        }
        if language == bundled {
            record(.bundled, bytes: entry.sizeBytes, verified: false, into: &sink)
        } else {
            guard let bytes = disk[language] else {
                record(.missing, bytes: 0, verified: false, into: &sink)
                startDownload(language, io: &io, sink: &sink)
                return .none
            }
            if languages.verify {
                // The digest of complete content is computed once (the manifest holds it); other
                // sizes are hashed here.
                let digest = bytes == entry.sizeBytes ? entry.completeDigest : caches.languageFileDigest(language: language, bytes: bytes)
                guard digest == entry.sha256 else {
                    record(.rejected, bytes: bytes, verified: true, into: &sink)
                    disk[language] = nil
                    startDownload(language, io: &io, sink: &sink)
                    return .none
                }
                record(.loaded, bytes: bytes, verified: true, into: &sink)
            } else if bytes < entry.sizeBytes {
                record(.corrupt, bytes: bytes, verified: false, into: &sink)
                corruptLoaded.insert(language)
            } else {
                record(.loaded, bytes: bytes, verified: false, into: &sink)
            }
        }
        resident.append(language)
        currentIsCorrupt = corruptLoaded.contains(current) && resident.contains(current)
        recordMemory(.language, .load, language: language, io: io, sink: &sink)
        return overLimit()
    }

    /// A download: one round trip, then the manifest size at the state's bandwidth. Going
    /// offline (a configured period or a trace event) or a kill interrupts it.
    private mutating func startDownload<Sink: ObservationSink>(_ language: String, io: inout KeyboardIO, sink: inout Sink) {
        guard !downloads.contains(where: { $0.language == language }) else { return }
        let entry = entry(for: language)
        let id = nextDownloadID
        nextDownloadID += 1
        let state = io.network.state(at: io.now)
        if state == .offline {
            // No connection: nothing arrives, no file is written.
            sink.record(.extensionLifecycle(.download(DownloadRecord(id: id, language: language, start: io.now,
                                                                     end: io.now + offlineFailure,
                                                                     sizeBytes: entry.sizeBytes, bytes: 0, outcome: .offline))))
            return
        }
        let roundTrip = io.network.roundTrip(.download, in: state)
        let kilobits = state == .good ? languages.goodKilobitsPerSecond : languages.badKilobitsPerSecond
        let bytesPerSecond = kilobits * 1000 / 8
        let transferStart = io.now + roundTrip
        // A configured offline period starting before the end cuts the transfer there.
        let end = io.network.cut(transferStart + SimDuration(milliseconds: Double(entry.sizeBytes) / bytesPerSecond * 1000),
                                 after: io.now)
        let handle = io.schedule(.process(.downloadEnded(download: id)), at: end)
        downloads.append(Download(id: id, language: language, start: io.now, transferStart: transferStart,
                                  bytesPerSecond: bytesPerSecond, sizeBytes: entry.sizeBytes, handle: handle))
    }

    private mutating func endDownload<Sink: ObservationSink>(_ id: Int, io: inout KeyboardIO, sink: inout Sink) -> Output {
        guard let download = downloads.first(where: { $0.id == id }) else { return .none }
        let bytes = Self.bytes(of: download, at: io.now)
        if bytes < download.sizeBytes {
            interrupt(download, outcome: .offline, io: &io, sink: &sink)   // cut by an offline period
            return .none
        }
        downloads.removeAll { $0.id == id }
        disk[download.language] = bytes
        sink.record(.extensionLifecycle(.download(DownloadRecord(id: id, language: download.language, start: download.start,
                                                                 end: io.now, sizeBytes: download.sizeBytes, bytes: bytes,
                                                                 outcome: .complete))))
        if download.language == current && !restarting { return loadLanguage(download.language, io: &io, sink: &sink) }
        return .none
    }

    /// Cuts a download short, leaving the bytes so far on disk under the file's name.
    private mutating func interrupt<Sink: ObservationSink>(_ download: Download, outcome: DownloadOutcome,
                                                           io: inout KeyboardIO, sink: inout Sink) {
        io.engine.cancel(download.handle)
        downloads.removeAll { $0.id == download.id }
        let bytes = Self.bytes(of: download, at: io.now)
        if bytes > 0 { disk[download.language] = bytes }
        sink.record(.extensionLifecycle(.download(DownloadRecord(id: download.id, language: download.language, start: download.start,
                                                                 end: io.now, sizeBytes: download.sizeBytes, bytes: bytes,
                                                                 outcome: outcome))))
    }

    /// The trace changed the network: going offline interrupts every download.
    mutating func networkChanged<Sink: ObservationSink>(_ condition: NetworkCondition, io: inout KeyboardIO, sink: inout Sink) {
        guard condition == .offline else { return }
        for download in downloads.sorted(by: { $0.id < $1.id }) { interrupt(download, outcome: .offline, io: &io, sink: &sink) }
    }
}
