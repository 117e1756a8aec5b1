@api @builtin
Feature: API requests with the built-in steps
  Requests are sent without a browser. Relative URLs resolve against
  [browser] baseURL; fixture files are read from this file's directory.
  /api/echo answers with what it received.

  Scenario: Every method reaches the server
    When I send a GET request to "/api/echo"
    Then I expect the response field "method" to equal "GET"
    When I send a post request to "/api/echo"
    Then I expect the response field "method" to equal "POST"
    When I send a PUT request to "/api/echo"
    Then I expect the response field "method" to equal "PUT"
    When I send a PATCH request to "/api/echo"
    Then I expect the response field "method" to equal "PATCH"
    When I send a DELETE request to "/api/echo"
    Then I expect the response field "method" to equal "DELETE"
    When I send a OPTIONS request to "/api/echo"
    Then I expect the response field "method" to equal "OPTIONS"
    When I send a HEAD request to "/api/health"
    Then I expect the response status to equal 200
    And I expect the response body to equal ""

  Scenario: Headers for one request and for every request
    Given every request has the header "Accept-Language" set to "en-GB"
    And the request header "X-Trace" is "trace-1"
    When I send a GET request to "/api/echo"
    Then I expect the response field "headers.x-trace" to equal "trace-1"
    And I expect the response field "headers.accept-language" to equal "en-GB"
    Given the request headers are:
      | X-Trace         | trace-2 |
      | Accept-Language | fr      |
    When I send a GET request to "/api/echo"
    Then I expect the response field "headers.x-trace" to equal "trace-2"
    And I expect the response field "headers.accept-language" to equal "fr"
    # The request's own headers were for that request only.
    When I send a GET request to "/api/echo"
    Then I expect the response field "headers.x-trace" not to be present
    And I expect the response field "headers.accept-language" to equal "en-GB"

  Scenario: Query parameters are encoded and may repeat
    Given the request query parameter "q" is "fish & chips"
    When I send a GET request to "/api/echo?page=2"
    Then I expect the response JSON to contain:
      """json
      { "query": { "q": "fish & chips", "page": "2" } }
      """
    Given the request query parameters are:
      | role | editor |
      | role | admin  |
    When I send a GET request to "/api/echo"
    Then I expect the response field "query.role" to match in any order:
      """json
      ["admin", "editor"]
      """

  Scenario: A JSON body from a doc string, with remembered values
    When I send a POST request to "/api/echo" with the JSON:
      """json
      { "name": "Ada", "age": 36, "tags": ["math"], "address": { "city": "London" } }
      """
    Then I expect the response field "contentType" to equal "application/json"
    And I expect the response field "json" to match:
      """json
      { "name": "Ada", "age": 36, "tags": ["math"], "address": { "city": "London" } }
      """
    When I remember the response field "json.age" as "age"
    And I send a POST request to "/api/echo" with the JSON:
      """json
      { "age": "$age", "label": "age $age", "bare": $age }
      """
    Then I expect the response field "json" to match:
      """json
      { "age": 36, "label": "age 36", "bare": 36 }
      """

  Scenario: A JSON body from a table of field paths, typed
    When I send a POST request to "/api/echo" with the JSON:
      | name          | Ada Lovelace |
      | age           | 36           |
      | zip           | 01234        |
      | code          | "42"         |
      | active        | true         |
      | manager       | null         |
      | address.city  | London       |
      | tags[0]       | math         |
      | tags[1]       | poetry       |
      | scores        | [1, 2]       |
    Then I expect the response field "json" to match:
      """json
      {
        "name": "Ada Lovelace", "age": 36, "zip": "01234", "code": "42", "active": true, "manager": null,
        "address": { "city": "London" }, "tags": ["math", "poetry"], "scores": [1, 2]
      }
      """

  Scenario: Preparing the request step by step
    Given the request JSON is:
      | title | Draft |
    And the request query parameter "dry-run" is "yes"
    When I send a PUT request to "/api/echo"
    Then I expect the response field "json.title" to equal "Draft"
    And I expect the response field "query.dry-run" to equal "yes"
    Given the request JSON is:
      """json
      [1, 2, 3]
      """
    When I send a POST request to "/api/echo"
    Then I expect the response field "json" to have length 3

  Scenario: A form body, URL-encoded
    When I send a POST request to "/api/echo" with the form:
      | name | Ada Lovelace |
      | lang | en & fr      |
    Then I expect the response field "contentType" to equal "application/x-www-form-urlencoded"
    And I expect the response field "form" to match:
      """json
      { "name": "Ada Lovelace", "lang": "en & fr" }
      """
    Given the request form is:
      | username | demo   |
      | password | secret |
    When I send a POST request to "/api/login"
    Then I expect the response to be successful

  Scenario: Text bodies
    When I send a POST request to "/api/echo" with the body:
      """
      Hello, server
      """
    Then I expect the response field "body" to equal "Hello, server"
    And I expect the response field "contentType" to equal "text/plain"
    Given the request body is:
      """
      { "looks": "like JSON" }
      """
    When I send a POST request to "/api/echo"
    Then I expect the response field "contentType" to equal "application/json"
    Given the request header "Content-Type" is "application/xml"
    And the request body is:
      """
      <note>hi</note>
      """
    When I send a POST request to "/api/echo"
    Then I expect the response field "contentType" to equal "application/xml"
    And I expect the response field "body" to equal "<note>hi</note>"

  Scenario: Bodies and uploads from fixture files next to the feature
    Given the request body is the file "api-fixtures/new-user.json"
    When I send a POST request to "/api/echo"
    Then I expect the response field "contentType" to equal "application/json"
    And I expect the response field "json.address.city" to equal "Hampton"
    Given the request multipart form is:
      | title | Scores |
    And the request multipart field "sheet" is the file "api-fixtures/scores.csv"
    And the request multipart field "note" is the file "./api-fixtures/../api-fixtures/hello.txt"
    When I send a POST request to "/api/echo"
    Then I expect the response field "contentType" to equal "multipart/form-data"
    And I expect the response field "form.title" to equal "Scores"
    And I expect the response field "files" to match in any order:
      """json
      [
        { "field": "sheet", "name": "scores.csv", "contentType": "text/csv", "size": 26, "text": "#regex name,score\\n(.|\\n)*" },
        { "field": "note", "name": "hello.txt", "contentType": "text/plain", "size": "#number", "text": "Hello from a fixture file\n" }
      ]
      """

  Scenario: An API base URL for the scenario
    Given the API base URL is "/api"
    When I send a GET request to "users/1"
    Then I expect the response field "name" to equal "Ada Lovelace"
    # A path from the root stays at the root.
    When I send a GET request to "/api/health"
    Then I expect the response field "status" to equal "ok"
    Given the API base URL is "/api/users/"
    When I send a GET request to "2"
    Then I expect the response field "name" to equal "Grace Hopper"

  Scenario: Logging in and using the token
    When I send a GET request to "/api/me"
    Then I expect the response status to equal 401
    And I expect the response header "WWW-Authenticate" to contain "Bearer"
    When I send a POST request to "/api/login" with the JSON:
      """json
      { "username": "demo", "password": "secret" }
      """
    Then I expect the response field "token" to match "^[0-9a-f]{32}$"
    And I remember the response field "token" as "token"
    Given I authenticate requests with the bearer token "$token"
    When I send a GET request to "/api/me"
    Then I expect the response JSON to match:
      """json
      { "username": "demo", "authenticatedWith": "bearer", "roles": ["admin"] }
      """

  Scenario: Basic authentication
    Given I authenticate requests as "demo" with the password "secret"
    When I send a GET request to "/api/me"
    Then I expect the response field "authenticatedWith" to equal "basic"

  Scenario: Redirects are followed unless the scenario says not to
    When I send a GET request to "/api/redirect?to=/api/health"
    Then I expect the response status to equal 200
    And I expect the response field "status" to equal "ok"
    Given requests do not follow redirects
    When I send a GET request to "/api/redirect?to=/api/health"
    Then I expect the response status to equal 302
    And I expect the response header "Location" to equal "/api/health"

  Scenario: A time limit for requests
    Given requests time out after 5 seconds
    When I send a GET request to "/api/slow?ms=10"
    Then I expect the response to be successful
    And I expect the response time to be less than 5000
    And I expect the response time not to be greater than 5000

  Scenario: Cookies a response sets go with the scenario's later requests
    When I send a GET request to "/welcome"
    Then I expect the response body not to contain "Welcome, demo!"
    When I send a POST request to "/login" with the form:
      | username | demo   |
      | password | secret |
    Then I expect the response status to equal 200
    And I expect the response body to contain "Welcome, demo!"
    When I send a GET request to "/welcome"
    Then I expect the response header "Content-Type" to contain "text/html"
    And I expect the response body to contain "You are logged in."

  Scenario: Polling until a job is done
    When I send a POST request to "/api/jobs?ms=300"
    Then I expect the response status to equal 202
    And I remember the response field "id" as "jobId"
    When I send a GET request to "/api/jobs/$jobId" until the response field "status" is "done"
    Then I expect the response field "result.rows" to equal 42
    Given polling gives up after 5 seconds
    When I send a GET request to "/api/status/201" until the response status is 201
    Then I expect the response field "text" to equal "Created"
