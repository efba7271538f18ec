import validator from 'gltf-validator';
import fs from 'fs';
const path = process.argv[2];
const data = new Uint8Array(fs.readFileSync(path));
const report = await validator.validateBytes(data, {externalResourceFunction: (uri) => Promise.reject('no external resources')});
console.log(JSON.stringify({errors: report.issues.numErrors, warnings: report.issues.numWarnings, messages: report.issues.messages.filter(m => m.severity <= 1).slice(0, 10)}));
process.exit(report.issues.numErrors > 0 ? 1 : 0);
