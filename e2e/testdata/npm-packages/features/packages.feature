Feature: the npm packages that step files use
  Each scenario uses one package for real: files on disk, a local HTTP
  server (its URL is the world parameter "server"), images, logs.

  Scenario: fs-extra
    Given fs-extra writes, copies and reads back files in a temporary directory

  Scenario: dotenv
    Given a .env file that defines GREETING and QUOTED
    When dotenv loads it
    Then process.env.GREETING is "hello from dotenv"

  Scenario: axios
    When axios gets JSON from the server
    And axios posts JSON to the server
    Then axios decompresses a gzip response, follows a redirect and reports a 404

  Scenario: chai
    Then chai's expect, should and assert styles pass and fail as they should

  Scenario: expect
    Then Jest's expect matches objects and explains a failed match

  Scenario: @faker-js/faker
    Then faker seeded with 42 makes the same person every time

  Scenario: lodash
    Then lodash groups, chunks, merges and templates

  Scenario: dayjs
    Then dayjs adds a month to 2024-01-31 and formats dates

  Scenario: uuid
    Then uuid makes v4, v5 and v7 identifiers and validates them

  Scenario: pngjs and pixelmatch
    Given two 32x32 PNG images that differ in a 4x4 square, written to disk
    When pixelmatch compares them after pngjs reads them back
    Then 16 pixels differ and the diff image is written

  Scenario: ajv
    Then ajv validates a document against a JSON schema and reports errors

  Scenario: zod
    Then zod parses valid input and reports the issues of invalid input

  Scenario: csv-parse
    Then csv-parse parses CSV with its stream, callback and sync APIs

  Scenario: jsonpath-plus
    Then jsonpath-plus selects the cheap books

  Scenario: jsonpath
    Then jsonpath queries the books with a filter

  Scenario: form-data
    Then form-data posts fields and a file to the server

  Scenario: node-fetch
    Then node-fetch gets JSON, posts text and decompresses gzip from the server

  Scenario: winston
    Then winston logs JSON lines to a file

  Scenario: yaml
    Then yaml parses a document and writes it back

  Scenario: @cucumber/cucumber types
    Given a world typed with the types of @cucumber/cucumber
    Then the typed data table has 2 rows
      | name  | role  |
      | alice | admin |
      | bob   | user  |
