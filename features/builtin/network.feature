@builtin
Feature: Built-in steps: network
  Mocking, blocking and delaying what the page requests, and checking the
  requests it made. URL patterns are Playwright's globs.

  Background:
    Given I open "/environment.html"

  Scenario: Mocking responses with JSON, a status, a body, a file
    When I mock "**/api/todos" with the JSON:
      """
      [{"id": 1, "title": "Mocked todo", "done": false}]
      """
    And I click "#load-todos"
    Then I expect the text of "#todos-result" to equal "1 todos: Mocked todo"
    When I stop mocking "**/api/todos"
    And I click "#load-todos"
    Then I expect the text of "#todos-result" to contain "Read the docs"
    When I mock "**/api/todos" with the status 500
    And I click "#load-todos"
    Then I expect the text of "#todos-result" to equal "Failed: status 500"
    When I remember "Created" as "title"
    And I mock "**/api/todos" with the status 201 and the JSON:
      """
      [{"id": 7, "title": "$title", "done": true}]
      """
    And I click "#load-todos"
    Then I expect the text of "#todos-result" to equal "1 todos: Created"
    When I mock "**/api/todos" with the file "fixtures/todos.json"
    And I click "#load-todos"
    Then I expect the text of "#todos-result" to equal "2 todos: From a file, Another one"
    When I mock "**/api/todos" with the status 404 and the file "fixtures/todos.json"
    And I click "#load-todos"
    Then I expect the text of "#todos-result" to equal "Failed: status 404"
    When I mock "**/api/health" with the status 503 and the body "down"
    And I click "#check-health"
    Then I expect the text of "#health" to equal "503 down"
    When I mock "**/api/health" with the JSON '{"status": "mocked"}'
    And I click "#check-health"
    Then I expect the text of "#health" to contain "mocked"

  Scenario: Blocking and delaying requests
    When I block "**/api/health"
    And I click "#check-health"
    Then I expect the text of "#health" to start with "Failed"
    When I delay "**/api/todos" by 1000 milliseconds
    And I click "#load-todos"
    Then I expect the text of "#todos-result" to equal "Loading"
    And I expect the text of "#todos-result" to contain "Read the docs"
    When I block the "fetch" requests
    And I click "#load-todos"
    Then I expect the text of "#todos-result" to start with "Failed"

  Scenario: Recording and checking requests
    When I record the network requests
    And I set the HTTP header "X-Demo" to "yes"
    And I mock "**/api/echo" with the JSON '{"event": "mocked"}'
    And I click "#send-echo"
    Then I expect a request to "**/api/echo" to have been made
    And I expect a request to "**/api/nothing" not to have been made
    And I expect the number of requests to "/api/echo" to equal 1
    And I expect the number of requests to "**/api/*" not to be greater than 1
    And I expect the text of "#echo" to equal "Echoed mocked"
    When I remember the last request to "**/api/echo" as "echo"
    Then I expect "$echo.method" to equal "POST"
    And I expect "$echo.json.event" to equal "click"
    And I expect "$echo.headers.x-demo" to equal "yes"
    And I expect "$echo.status" to equal 200

  Scenario: Going offline
    When I go offline
    And I click "#refresh"
    Then I expect the text of "#online" to equal "offline"
    When I go back online
    And I click "#refresh"
    Then I expect the text of "#online" to equal "online"
