@builtin
Feature: Built-in steps: keyboard and mouse

  Background:
    Given I open "/elements.html"

  Scenario: Keys and text
    When I click "#keys"
    And I press "Enter"
    Then I expect the text of "#last-key" to equal "Last key: Enter"
    When I press "ArrowLeft" 3 times
    Then I expect the text of "#key-count" to equal "4 keys"
    When I type "hi"
    Then I expect the value of "#keys" to equal "hi"
    When I press "Control+a" on "#keys"
    Then I expect the text of "#last-key" to equal "Last key: Control+a"
    When I hold down "Shift"
    And I press "b"
    And I release "Shift"
    Then I expect the text of "#last-key" to start with "Last key: Shift+"

  Scenario: The mouse at coordinates
    When I click at 20, 300
    Then I expect the text of "#mouse-click" to equal "click at 20, 300"
    When I double click at 30, 310
    Then I expect the text of "#mouse-dblclick" to equal "dblclick at 30, 310"
    When I move the mouse to 50, 320
    Then I expect the text of "#mouse-move" to equal "move at 50, 320"
    When I press the mouse button
    Then I expect the text of "#mouse-down" to equal "down at 50, 320"
    When I release the mouse button
    Then I expect the text of "#mouse-up" to equal "up at 50, 320"
    When I drag the mouse from 60, 330 to 160, 340
    Then I expect the text of "#mouse-down" to equal "down at 60, 330"
    And I expect the text of "#mouse-up" to equal "up at 160, 340"
    When I scroll the mouse wheel by 0, 400
    Then I expect the result of "window.scrollY" to be greater than 0
