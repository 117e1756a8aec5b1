@smoke @api
Feature: Todo API
  The JSON API, tested with this.request (no browser page needed). Relative
  URLs resolve against [browser] baseURL.

  Scenario: The health check
    When I GET "/api/health"
    Then the response status is 200
    And the response JSON is:
      """json
      { "status": "ok" }
      """

  Scenario: Creating and deleting a todo
    When I create the todo "Ship the release" through the API
    Then the response status is 201
    And the API lists the created todo
    When I delete the created todo through the API
    Then the response status is 204
    And the API no longer lists the created todo

  Scenario: A todo needs a title
    When I POST to "/api/todos":
      """json
      { "title": "   " }
      """
    Then the response status is 400
    And the response JSON is:
      """json
      { "error": "title is required" }
      """

  Scenario: Deleting a todo that does not exist
    When I DELETE "/api/todos/999999"
    Then the response status is 404
