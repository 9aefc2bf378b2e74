let page: Buffer | undefined;

/** The plain page readers get while no site is active (status 503, retry in 30 s). */
export function unavailablePage(): Buffer {
  page ??= Buffer.from(
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Documentation unavailable</title></head>\n' +
      '<body><h1>Documentation unavailable</h1><p>No documentation site is being served yet. Please try again in a moment.</p></body></html>\n',
  );
  return page;
}

let notHere: Buffer | undefined;

/** The page a host name with no site gets (status 404): the site listener serves several sites by host name. */
export function notHerePage(): Buffer {
  notHere ??= Buffer.from(
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>No documentation here</title></head>\n' +
      '<body><h1>No documentation here</h1><p>No documentation site is published at this address.</p></body></html>\n',
  );
  return notHere;
}
