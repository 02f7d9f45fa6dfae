/// The Lua scripts of `MSALRedisTokenCacheEntryStore`. Each runs atomically on the one slot its
/// keys share (one partition's hash tag, or one client's).
enum TokenCacheScripts {
    /// KEYS: entries hash, expiries hash, version. ARGV: the new version, the number of entries
    /// set, then for each its field, value and expiry (Unix milliseconds, or empty for none), then
    /// the fields removed. Sets and removes the entries, drops entries past their expiry (server
    /// time), sets the version, and makes the three keys live as long as the latest expiry (or
    /// forever when an entry has none); an emptied partition is deleted.
    static let write = """
        local entries, expiries, version = KEYS[1], KEYS[2], KEYS[3]
        local count = tonumber(ARGV[2])
        local index = 3
        for _ = 1, count do
          redis.call('HSET', entries, ARGV[index], ARGV[index + 1])
          if ARGV[index + 2] == '' then
            redis.call('HDEL', expiries, ARGV[index])
          else
            redis.call('HSET', expiries, ARGV[index], ARGV[index + 2])
          end
          index = index + 3
        end
        while index <= #ARGV do
          redis.call('HDEL', entries, ARGV[index])
          redis.call('HDEL', expiries, ARGV[index])
          index = index + 1
        end
        local time = redis.call('TIME')
        local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
        local known = {}
        local listed = redis.call('HGETALL', expiries)
        for j = 1, #listed, 2 do known[listed[j]] = tonumber(listed[j + 1]) end
        local latest, forever = 0, false
        for _, field in ipairs(redis.call('HKEYS', entries)) do
          local expiry = known[field]
          if expiry == nil then
            forever = true
          elseif expiry <= now then
            redis.call('HDEL', entries, field)
            redis.call('HDEL', expiries, field)
          elseif expiry > latest then
            latest = expiry
          end
        end
        if redis.call('HLEN', entries) == 0 then
          redis.call('DEL', entries, expiries, version)
          return 0
        end
        redis.call('SET', version, ARGV[1])
        for _, key in ipairs({entries, expiries, version}) do
          if forever then redis.call('PERSIST', key) else redis.call('PEXPIREAT', key, latest) end
        end
        return 1
        """

    /// KEYS: the client's partition index, its change version. ARGV: the partition's member,
    /// "add" or "remove", the new change version.
    static let index = """
        if ARGV[2] == 'add' then
          redis.call('SADD', KEYS[1], ARGV[1])
        else
          redis.call('SREM', KEYS[1], ARGV[1])
        end
        redis.call('SET', KEYS[2], ARGV[3])
        return 1
        """

    /// KEYS: a lock. ARGV: its owner. Deletes the lock only when the owner still holds it.
    static let unlock = """
        if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
        return 0
        """
}
