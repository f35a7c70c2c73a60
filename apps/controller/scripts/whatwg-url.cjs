// What the bundle gives node-fetch 2 for `require('whatwg-url')`. node-fetch takes URL from Node's
// `url` module and falls back to whatwg-url's only where Node has none (`Url.URL || whatwgUrl.URL`),
// which no supported Node is; the package would still load tr46's Unicode tables at every start
// (about 300 KB of code, 3 MiB of RSS), and tr46 requires Node's deprecated punycode module.
'use strict';
module.exports = { URL: require('node:url').URL };
