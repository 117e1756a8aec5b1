@flow
Feature: Flows: logging in through the API
  Called once per run by features/builtin/api_flows.feature (`I call ...
  once`): later callers get the token it remembered without logging in
  again.

  Scenario: Log in through the API
    When I send a POST request to "/api/login" with the JSON:
      """json
      { "username": "$user", "password": "$password" }
      """
    Then I expect the response status to equal 200
    And I remember the response field "token" as "token"

  Scenario: Check the API's health
    When I send a GET request to "/api/health"
    Then I expect the response field "status" to equal "ok"
    And I remember the response field "status" as "health"
