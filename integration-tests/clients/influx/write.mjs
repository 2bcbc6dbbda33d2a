// Writes points given as JSON on stdin with the official InfluxDB v2 client.
// Usage: node write.mjs <url> <token> <org> <bucket>
// stdin: [{"measurement": "m", "tags": {"k": "v"}, "fields": {"f": {"type": "float|int|uint|string|boolean", "value": ...}}, "time": "<ns>"}]
// Exits 0 when the server accepted every batch, 1 with the error otherwise.
import {InfluxDB, Point} from '@influxdata/influxdb-client'

const [url, token, org, bucket] = process.argv.slice(2)
const input = await new Promise((resolve) => {
  let text = ''
  process.stdin.setEncoding('utf8')
  process.stdin.on('data', (chunk) => (text += chunk))
  process.stdin.on('end', () => resolve(text))
})

const writeApi = new InfluxDB({url, token, timeout: 30000}).getWriteApi(org, bucket, 'ns', {
  batchSize: 500,
  flushInterval: 0,
  maxRetries: 0,
  gzipThreshold: 1000,
})

for (const p of JSON.parse(input)) {
  const point = new Point(p.measurement)
  for (const [k, v] of Object.entries(p.tags)) point.tag(k, v)
  for (const [k, f] of Object.entries(p.fields)) {
    if (f.type === 'float') point.floatField(k, f.value)
    else if (f.type === 'int') point.intField(k, f.value)
    else if (f.type === 'uint') point.uintField(k, f.value)
    else if (f.type === 'boolean') point.booleanField(k, f.value)
    else point.stringField(k, f.value)
  }
  point.timestamp(p.time)
  writeApi.writePoint(point)
}

try {
  await writeApi.close()
  console.log('written')
} catch (e) {
  console.error(`write failed: ${e}`)
  process.exit(1)
}
